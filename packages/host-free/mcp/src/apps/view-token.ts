import { VIEW_TOKEN_MAX_LENGTH } from '@sess/contract';
import { hmacTag, safeEqual } from '@sess/core';

/*
 * The view's per-render token: what lets the form inside the chat answer or read its status.
 * It is handed to the view in a result's `_meta` (hosts pass `_meta` to the view, not to the
 * model), bound to the handle, the revision, the principal and the OAuth client (the connector)
 * it was rendered for, single-purpose (its own HMAC label) and short-lived. Stateless: any replica
 * checks it. A model that calls an app-only tool has no token; one copied from another form,
 * revision or connection does not verify.
 */

const LABEL = 'sess.chat-view.v1';
/** How long a token is good for; every status read hands the view a fresh one. */
export const VIEW_TOKEN_TTL_MS = 30 * 60_000;

/** What a token is bound to. */
export interface ViewTokenBinding {
  handle: string;
  revision: number;
  principalId: string;
  clientId: string;
}

function tag(secret: string, binding: ViewTokenBinding, expiresAt: number): string {
  return hmacTag(secret, LABEL, [
    binding.handle,
    String(binding.revision),
    binding.principalId,
    binding.clientId,
    String(expiresAt),
  ]);
}

/** A token for `binding`, good until `now` + the TTL (whole seconds). */
export function issueViewToken(secret: string, binding: ViewTokenBinding, now: Date): string {
  const expiresAt = Math.floor((now.getTime() + VIEW_TOKEN_TTL_MS) / 1000);
  return `v1.${expiresAt}.${tag(secret, binding, expiresAt)}`;
}

/** Whether `presented` is a token of exactly `binding` that has not expired at `now` (constant-time compare). */
export function checkViewToken(secret: string, binding: ViewTokenBinding, presented: unknown, now: Date): boolean {
  if (typeof presented !== 'string' || presented.length > VIEW_TOKEN_MAX_LENGTH) return false;
  const match = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(presented);
  if (!match) return false;
  const expiresAt = Number(match[1]);
  if (expiresAt * 1000 <= now.getTime()) return false;
  return safeEqual(tag(secret, binding, expiresAt), match[2]!);
}
