import type { Db } from '@sess/db';
import { registerClient, validateClientMetadata } from '@sess/oauth';
import { recordSecret } from '../log-audit/capture.ts';

/** A registered OAuth client for a test, made through the same verbs as `POST /oauth/register`. */
export interface TestOAuthClient {
  clientId: string;
  /** Set for a confidential client (shown once, as at registration). */
  clientSecret: string | undefined;
  /** The first registered redirect URI. */
  redirectUri: string;
}

/**
 * Registers a DCR client directly in the database (validation and storage exactly as the
 * registration endpoint does them). Public by default; `confidential` gives it a secret
 * (client_secret_basic). Use with `signInAndAuthorize({ client: { kind: 'existing', … } })`.
 */
export async function createTestOAuthClient(
  db: Db,
  options: { name?: string; redirectUris?: string[]; confidential?: boolean; now?: Date } = {},
): Promise<TestOAuthClient> {
  const metadata = validateClientMetadata(
    {
      client_name: options.name ?? 'Test client',
      redirect_uris: options.redirectUris ?? ['http://127.0.0.1:9/callback'],
      token_endpoint_auth_method: options.confidential ? 'client_secret_basic' : 'none',
    },
    'dcr',
  );
  const registered = await registerClient(db, { metadata, now: options.now ?? new Date() });
  recordSecret(registered.client_secret, 'credential');
  return { clientId: registered.client_id, clientSecret: registered.client_secret, redirectUri: registered.redirect_uris[0]! };
}
