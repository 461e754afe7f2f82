import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { KmsVault, LocalVault, localVaultKey } from '../../shared/identity/vault';

const SECRET = JSON.stringify({ kind: 'oauth', access_token: 'at-very-secret-123', refresh_token: 'rt-very-secret-456' });
const ctx = { tenant: 'acme', connection: 'con_0123456789abcdef01234567' };

describe('local vault (AES-256-GCM)', () => {
  it('seals so the ciphertext reveals nothing and opens only under its own tenant and connection', async () => {
    const vault = new LocalVault(randomBytes(32));
    const sealed = await vault.seal(SECRET, ctx);
    expect(JSON.stringify(sealed)).not.toContain('very-secret');
    expect(await vault.open(sealed, ctx)).toBe(SECRET);
    await expect(vault.open(sealed, { ...ctx, tenant: 'other' })).rejects.toThrow();
    await expect(vault.open(sealed, { ...ctx, connection: 'con_ffffffffffffffffffffffff' })).rejects.toThrow();
    await expect(new LocalVault(randomBytes(32)).open(sealed, ctx)).rejects.toThrow();
    const tampered = { ...sealed, ct: Buffer.from(Buffer.from(sealed.ct, 'base64').map((b, i) => (i === 0 ? b ^ 1 : b))).toString('base64') };
    await expect(vault.open(tampered, ctx)).rejects.toThrow();
  });

  it('takes its key from VAULT_KEY, or makes a key file once (mode 600) and reuses it', () => {
    const key = randomBytes(32);
    expect(localVaultKey({ VAULT_KEY: key.toString('base64') }, '/nonexistent/never-read')).toEqual(key);
    expect(() => localVaultKey({ VAULT_KEY: 'c2hvcnQ=' }, '/nonexistent')).toThrow(/32 bytes/);
    const file = join(mkdtempSync(join(tmpdir(), 'vault-')), 'sub', 'vault.key');
    const made = localVaultKey({}, file);
    expect(made).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(localVaultKey({}, file)).toEqual(made);
  });
});

describe('KMS vault (envelope encryption)', () => {
  const kms = mockClient(KMSClient);
  afterEach(() => kms.reset());

  it('seals with a fresh data key per secret, bound to its encryption context; opens through KMS Decrypt', async () => {
    const dataKeys: Buffer[] = [];
    kms.on(GenerateDataKeyCommand).callsFake(() => {
      const plain = randomBytes(32);
      dataKeys.push(plain);
      // What KMS would return: the key, and its copy encrypted under the KMS key (opaque here).
      return { Plaintext: new Uint8Array(plain), CiphertextBlob: new Uint8Array(Buffer.concat([Buffer.from('kms:'), Buffer.from(String(dataKeys.length - 1))])) };
    });
    kms.on(DecryptCommand).callsFake((input: { CiphertextBlob: Uint8Array; EncryptionContext: Record<string, string> }) => {
      if (input.EncryptionContext.tenant !== ctx.tenant || input.EncryptionContext.connection !== ctx.connection) throw Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' });
      const index = Number(Buffer.from(input.CiphertextBlob).toString().slice(4));
      return { Plaintext: new Uint8Array(dataKeys[index]!) };
    });
    const vault = new KmsVault(new KMSClient({ region: 'eu-central-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }), 'alias/tes-vault');
    const a = await vault.seal(SECRET, ctx);
    const b = await vault.seal(SECRET, ctx);
    expect(a.by).toBe('kms');
    expect(a.dk).not.toBe(b.dk);
    expect(JSON.stringify(a)).not.toContain('very-secret');
    // The plaintext data key is never stored.
    expect(JSON.stringify(a)).not.toContain(dataKeys[0]!.toString('base64'));
    const generate = kms.commandCalls(GenerateDataKeyCommand)[0]!.args[0].input;
    expect(generate).toEqual({ KeyId: 'alias/tes-vault', KeySpec: 'AES_256', EncryptionContext: ctx });
    expect(await vault.open(a, ctx)).toBe(SECRET);
    expect(kms.commandCalls(DecryptCommand)[0]!.args[0].input).toMatchObject({ KeyId: 'alias/tes-vault', EncryptionContext: ctx });
    await expect(vault.open(a, { ...ctx, tenant: 'other' })).rejects.toThrow();
  });
});
