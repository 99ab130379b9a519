import type { Logger } from '@sess/core';
import type { Db } from '@sess/db';
import type { OAuthUrls } from '../settings.ts';
import type { AccessTokenSigner } from './access-token-keys.ts';

/** What the token-issuing verbs need. */
export interface TokenContext {
  db: Db;
  signer: () => Promise<AccessTokenSigner>;
  urls: OAuthUrls;
  now: () => Date;
  logger: Logger;
}
