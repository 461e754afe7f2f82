import type { BdEnvelope, BdResults } from '../wire';

/**
 * What a tool answers in JSON mode: BatchData's envelope (docs/spec.md#realty-property) with the tool's changes, less
 * `meta.performance` — the vendor's server timings, different on every call and of no use to a
 * caller (a repeated call then answers the same; `requestId` stays for support requests).
 */
export function toolEnvelope(env: BdEnvelope, changes: Partial<BdResults> = {}): BdEnvelope {
  const { performance: _timings, ...meta } = changes.meta ?? env.results.meta;
  return { status: env.status, results: { ...env.results, ...changes, meta } };
}
