import { type DbOrTx, queryRows } from '@sess/db';
import { type SQL, sql } from 'drizzle-orm';
import { checkResource } from '../authorize/validate-authorization-request.ts';
import { isOAuthError, OAuthError } from '../errors/oauth-error.ts';
import { isCodeVerifier, pkceS256Challenge } from './pkce.ts';

/*
 * The redemption rule of an authorization code, written once, in SQL. It used to be written
 * twice: as the WHERE clause of the one-statement redemption and again in TypeScript for the
 * slow path's precise answer, and the two could drift apart. A table rendered to both SQL and
 * TypeScript would still need each condition written in both languages; so instead the database
 * is the one place both read: the redemption burns a code only when every condition holds, and
 * the slow path asks the database, over the same conditions, which failed first.
 */

/** What a token request presents, as the conditions compare it. */
export interface PresentedCode {
  clientId: string;
  now: Date;
  redirectUri: string | null;
  /** The S256 challenge of the code_verifier; null when the verifier is missing or malformed. */
  challenge: string | null;
  /** The canonical resource asked for; null when none was; the refusal of one that is not ours. */
  resource: string | null | OAuthError;
}

/** The presented values of a token request (a resource that is not ours becomes its refusal). */
export function presentCode(
  input: { clientId: string; codeVerifier: string | null; redirectUri: string | null; resource: string | null },
  now: Date,
  ourResource: string,
): PresentedCode {
  return {
    clientId: input.clientId,
    now,
    redirectUri: input.redirectUri,
    challenge: isCodeVerifier(input.codeVerifier) ? pkceS256Challenge(input.codeVerifier) : null,
    resource: input.resource === null ? null : canonicalResource(input.resource, ourResource),
  };
}

function canonicalResource(value: string, ourResource: string): string | OAuthError {
  try {
    return checkResource(value, ourResource);
  } catch (error) {
    if (isOAuthError(error)) return error;
    throw error;
  }
}

/** One condition on an `oauth_codes` row, and the refusal when it is the first to fail. */
interface CodeCondition {
  holds: SQL;
  refusal: () => OAuthError;
}

/** The refusal of a code that is unknown, not this client's, expired or already used. */
export const invalidCode = () => new OAuthError('invalid_grant', 'The authorization code is invalid, expired or already used.');

/**
 * The checks on a code row, in order; the first failure is the answer: issued to this client,
 * not expired, the same redirect_uri as the authorization request (RFC 6749 §4.1.3), the PKCE
 * S256 verifier (RFC 7636 §4.6), the same resource (RFC 8707).
 */
function codeConditions(presented: PresentedCode): CodeCondition[] {
  const { clientId, redirectUri, challenge, resource } = presented;
  const now = presented.now.toISOString();
  return [
    { holds: sql`client_id = ${clientId}`, refusal: invalidCode },
    { holds: sql`expires_at > ${now}::timestamptz`, refusal: invalidCode },
    {
      holds: sql`(case when redirect_uri_given then redirect_uri = ${redirectUri}::text
                       else (${redirectUri}::text is null or redirect_uri = ${redirectUri}::text) end)`,
      refusal: () => new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request.'),
    },
    {
      holds: challenge === null ? sql`false` : sql`true`,
      refusal: () => new OAuthError('invalid_grant', 'code_verifier is missing or malformed.'),
    },
    {
      holds: sql`code_challenge = ${challenge}::text`,
      refusal: () => new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.'),
    },
    resource instanceof OAuthError
      ? { holds: sql`false`, refusal: () => resource }
      : {
          holds: sql`(${resource}::text is null or resource = ${resource}::text)`,
          refusal: () => new OAuthError('invalid_target', 'resource differs from the authorization request.'),
        },
  ];
}

/** The conditions as one SQL predicate over an `oauth_codes` row: the code may be redeemed. */
export function codeRedeemable(presented: PresentedCode): SQL {
  return sql.join(
    codeConditions(presented).map((condition) => sql`(${condition.holds})`),
    sql` and `,
  );
}

/** The refusal of the first condition the code fails (an unknown code is invalid), or null when it passes them all. */
export async function firstFailedCondition(db: DbOrTx, codeHash: string, presented: PresentedCode): Promise<OAuthError | null> {
  const conditions = codeConditions(presented);
  const checks = sql.join(
    conditions.map((condition) => sql`(${condition.holds}) is true`),
    sql`, `,
  );
  const [row] = await queryRows<{ holds: boolean[] }>(
    db,
    sql`select array[${checks}] as holds from oauth_codes where code_hash = ${codeHash}`,
  );
  if (!row) return invalidCode();
  const failed = conditions.findIndex((_, i) => row.holds[i] !== true);
  return failed === -1 ? null : conditions[failed]!.refusal();
}
