/** The WebAuthn tables (migration 20261127_1150_webauthn), as Kysely sees them. */
export interface WebAuthnCredentialsTable {
  /** base64url credential id. */
  id: string;
  user_id: string;
  name: string;
  /** base64url COSE public key. */
  public_key: string;
  counter: number;
  /** JSON: AuthenticatorTransport[] */
  transports: string;
  created_at: string;
  last_used_at: string | null;
}

export interface WebAuthnChallengesTable {
  id: string;
  user_id: string;
  purpose: 'register' | 'signIn';
  challenge: string;
  expires_at: string;
}

export interface WebAuthnTables {
  webauthn_credentials: WebAuthnCredentialsTable;
  webauthn_challenges: WebAuthnChallengesTable;
}
