import { describe, expect, it } from 'vitest';
import { vendorAccount } from '../../shared/identity/oauth';
import type { OAuthProvider } from '../../shared/identity/providers';

const CHUNK = 16 * 1024;

/** A provider whose account endpoint answers `body`; what the reader pulled from it is counted. */
function answering(body: () => ReadableStream<Uint8Array> | string) {
  const provider = { account: { url: () => 'https://vendor.example/me', scheme: 'Bearer', read: (b: { user?: { name?: string } }) => ({ name: b.user?.name }) } } as unknown as OAuthProvider;
  const fetcher = (async () => new Response(body(), { headers: { 'content-type': 'application/json' } })) as typeof fetch;
  return (timeoutMs = 1000) => vendorAccount(fetcher, provider, 'tok', undefined, timeoutMs);
}

/**
 * The connected account's name is read with the one bounded reader (shared/core/json-body.ts
 * readBounded, a Response as a Request): a vendor's answer is never held past 64 KB.
 */
describe("the vendor account's name after a connect", () => {
  it('reads the name the vendor answers', async () => {
    expect(await answering(() => JSON.stringify({ user: { name: 'Ada Lovelace' } }))()).toEqual({ name: 'Ada Lovelace' });
  });

  it('leaves the account unnamed past 64 KB, and stops reading a streamed answer there', async () => {
    let pulled = 0;
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += CHUNK;
          controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
        },
      });
    expect(await answering(endless)()).toBeUndefined();
    expect(pulled).toBeGreaterThan(64 * 1024);
    // The stream is cancelled at the first chunk past the limit (one more may be queued ahead).
    expect(pulled).toBeLessThanOrEqual(64 * 1024 + 2 * CHUNK);
  });
});
