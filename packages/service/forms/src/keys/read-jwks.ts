import type { Jwks } from '@sess/receipts';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';

/**
 * The JWK Set for `GET /.well-known/jwks.json`: the active key and the previous one, from the
 * process's cached ring (reloaded when a rotation is announced). Creates the first key on a
 * fresh database, so a verifier can fetch keys before the first answer is signed.
 */
export async function readJwks(runtime: FormsRuntime): Promise<Jwks> {
  return (await runtime.keyRing()).jwks;
}
