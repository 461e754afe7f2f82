/**
 * A sealed secret: AES-256-GCM ciphertext, its IV and tag, and (KMS) the data key encrypted under
 * the KMS key. Bound to its tenant and connection: opening it under another context fails.
 */
export interface Sealed {
  alg: 'A256GCM';
  /** 'local' (a key of this machine) or 'kms' (envelope: `dk` is the KMS-encrypted data key). */
  by: 'local' | 'kms';
  iv: string;
  tag: string;
  ct: string;
  dk?: string;
}

/** A credential kept for later (ToolContext.keepCredential): a connection of a tenant, or a sealed vendor key. */
export type KeptCredential = { connection: { tenant: string; id: string } } | { sealed: Sealed };
