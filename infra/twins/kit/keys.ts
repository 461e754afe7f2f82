/**
 * The fixed sandbox keys, so the README's curl lines work as printed. Locally the one sandbox key
 * works on every platform (each twin maps `owner` to its demo owner), and each twin has a second
 * key for a plain member. The keys are Tape-shaped (`user_key_…`) because Tape checks the prefix;
 * other vendors accept any token.
 */
export const SANDBOX_KEYS = {
  /** The demo owner of every twin (Tape: John Doe, organization owner). */
  owner: 'user_key_sbx7Jd0e1Q2w3E4r5T6y7U8i9O0pAsDf',
  /** A plain member of every twin (Tape: Zoe Maxwell, organization member). */
  member: 'user_key_sbx9Zm4x5C6v7B8n9M0qWeRtYuIoPlKj',
  /** Tape only: an automation ("workflow") API key: it authenticates an automation built by the owner, not a person. */
  automation: 'user_key_sbxAut0m4t10nW0rkfL0wK3yQ2w3E4r5',
} as const;
