import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { KMSClient } from '@aws-sdk/client-kms';

import type { Sealed } from '../core/seal';

export type { Sealed };

/** Whose secret it is: the additional authenticated data, and KMS's encryption context. */
export interface SealContext {
  tenant: string;
  connection: string;
}

export interface Vault {
  seal(plaintext: string, ctx: SealContext): Promise<Sealed>;
  open(sealed: Sealed, ctx: SealContext): Promise<string>;
}

const aad = (ctx: SealContext) => Buffer.from(`${ctx.tenant}\n${ctx.connection}`, 'utf8');

function encrypt(key: Buffer, plaintext: string, ctx: SealContext): Omit<Sealed, 'by'> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(ctx));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { alg: 'A256GCM', iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ct: ct.toString('base64') };
}

function decrypt(key: Buffer, sealed: Sealed, ctx: SealContext): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(aad(ctx));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(sealed.ct, 'base64')), decipher.final()]).toString('utf8');
}

/** AES-256-GCM under one 32-byte key of this machine (VAULT_KEY or the key file). */
export class LocalVault implements Vault {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the vault key must be 32 bytes (base64 of 32 random bytes)');
  }
  async seal(plaintext: string, ctx: SealContext): Promise<Sealed> {
    return { ...encrypt(this.key, plaintext, ctx), by: 'local' };
  }
  async open(sealed: Sealed, ctx: SealContext): Promise<string> {
    if (sealed.by !== 'local') throw new Error('this secret was sealed by KMS; set KMS_KEY_ID to open it');
    return decrypt(this.key, sealed, ctx);
  }
}

/**
 * The local key: VAULT_KEY (base64 of 32 bytes) if set, else the file at `file`, created with 32
 * random bytes (mode 600) on first use. Losing the file loses the stored credentials (reconnect).
 */
export function localVaultKey(env: Record<string, string | undefined>, file: string): Buffer {
  if (env.VAULT_KEY) {
    const key = Buffer.from(env.VAULT_KEY, 'base64');
    if (key.length !== 32) throw new Error('VAULT_KEY must be the base64 of 32 bytes (e.g. `openssl rand -base64 32`)');
    return key;
  }
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  const key = randomBytes(32);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

/**
 * KMS envelope encryption: a fresh data key per sealing (GenerateDataKey, AES_256), the secret
 * encrypted locally with it, only its KMS-encrypted copy stored. Opening asks KMS to decrypt the
 * data key (Decrypt) under the same encryption context, so a copied item opens for no other
 * tenant or connection and a leaked table reveals nothing without the KMS key.
 */
export class KmsVault implements Vault {
  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async seal(plaintext: string, ctx: SealContext): Promise<Sealed> {
    const { GenerateDataKeyCommand } = await import('@aws-sdk/client-kms');
    const out = await this.client.send(new GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: { ...ctx } }));
    if (!out.Plaintext || !out.CiphertextBlob) throw new Error('KMS GenerateDataKey answered no key');
    const key = Buffer.from(out.Plaintext);
    try {
      return { ...encrypt(key, plaintext, ctx), by: 'kms', dk: Buffer.from(out.CiphertextBlob).toString('base64') };
    } finally {
      key.fill(0);
    }
  }

  async open(sealed: Sealed, ctx: SealContext): Promise<string> {
    if (sealed.by !== 'kms' || !sealed.dk) throw new Error('this secret was sealed locally, not by KMS');
    const { DecryptCommand } = await import('@aws-sdk/client-kms');
    const out = await this.client.send(new DecryptCommand({ CiphertextBlob: Buffer.from(sealed.dk, 'base64'), KeyId: this.keyId, EncryptionContext: { ...ctx } }));
    if (!out.Plaintext) throw new Error('KMS Decrypt answered no key');
    const key = Buffer.from(out.Plaintext);
    try {
      return decrypt(key, sealed, ctx);
    } finally {
      key.fill(0);
    }
  }
}

/** The configured vault: KMS when KMS_KEY_ID is set, else the local key. */
export async function createVault(env: Record<string, string | undefined>): Promise<Vault> {
  if (env.KMS_KEY_ID) {
    const { KMSClient } = await import('@aws-sdk/client-kms');
    return new KmsVault(new KMSClient(env.AWS_REGION ? { region: env.AWS_REGION } : {}), env.KMS_KEY_ID);
  }
  return new LocalVault(localVaultKey(env, env.VAULT_KEY_FILE ?? '.data/vault.key'));
}
