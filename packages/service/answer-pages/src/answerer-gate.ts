import type { SessError } from '@sess/core';
import { type AnswerWay, decideAnswerer, type LinkView } from '@sess/forms';
import type { Context } from 'hono';
import { pagePaths } from './to-page-view.ts';

/*
 * The answer page's side of "who may answer this form" (the rule itself is forms'
 * decideAnswerer): which account this browser is signed in as, and what a browser that may not
 * answer is shown. A form at `link` is left alone: the link answers it, as before.
 *
 * Where the cookie lives: the browser session is PUBLIC_URL's cookie, and SESS_LINK_URL (the
 * links' own origin, when set apart) never sees it (apps/server drops every other cookie there).
 * So a form above `link` opened on the links' origin is sent to the same page on PUBLIC_URL, and
 * answered there signed in; a browser not signed in goes to PUBLIC_URL's sign-in page and comes
 * back to the form (`return_to=/s/<token>`, the sign-in page's same-origin rule).
 */

/** What the hosting app tells the pages about accounts (apps/server wires @sess/accounts' browser sessions). */
export interface PageAccounts {
  /** The account whose live browser session came with this request's cookies, or undefined. */
  signedInUser(cookieHeader: string | undefined): Promise<string | undefined>;
  /** True when the request is on SESS_LINK_URL's own host (not PUBLIC_URL's), where no session cookie is sent. */
  isLinkHost(host: string | undefined): boolean;
  /** The answer ceremony of a `passkey` form; without it such a form takes no answer on its page. */
  passkeys?: PagePasskeys | undefined;
}

/**
 * The passkey answer ceremony, as the pages use it (apps/server wires @sess/accounts'
 * startAnswerCeremony and verifyAnswerAssertion over PUBLIC_URL's relying party).
 */
export interface PagePasskeys {
  /** The WebAuthn request options of a ceremony for `userId` bound to `boundTo`; null when the account has no passkey. */
  start(userId: string, boundTo: string): Promise<unknown>;
  /** The verified assertion of `userId` for `boundTo`, or why not (a reason and the sentence the person reads). */
  verify(
    userId: string,
    boundTo: string,
    response: unknown,
  ): Promise<{ ok: true; credentialId: string; assertionSha256: string } | { ok: false; reason: string }>;
}

/** Without accounts wired (tests of the pages alone): nobody is ever signed in. */
export const NO_ACCOUNTS: PageAccounts = {
  signedInUser: async () => undefined,
  isLinkHost: () => false,
};

/** Where a browser that may not answer yet goes, or the someone-else page it is shown. */
export type GateTurn = { kind: 'redirect'; location: string } | { kind: 'someone_else' };

/** Where a refusal of the answerer sends the browser; undefined for refusals shown on the form itself. */
export function turnFor(refused: SessError, token: string, onLinkHost: boolean, publicUrl: string): GateTurn | undefined {
  switch (refused.code) {
    case 'SIGN_IN_REQUIRED': {
      const page = pagePaths(token).page;
      // On the links' origin the session cookie is not sent: answer on PUBLIC_URL's copy of the page.
      if (onLinkHost) return { kind: 'redirect', location: `${publicUrl}${page}` };
      return { kind: 'redirect', location: `/signin?return_to=${encodeURIComponent(page)}` };
    }
    case 'FORM_FOR_SOMEONE_ELSE':
      return { kind: 'someone_else' };
    default:
      return undefined;
  }
}

/**
 * The way this request answers (`link`, with its signed-in account when the form needs one) and,
 * when it may not open `view` at all, where it goes instead. A `passkey` form lets its own
 * account see the form: the post says what is missing.
 */
export async function gateView(
  c: Context,
  accounts: PageAccounts,
  view: LinkView,
  token: string,
  publicUrl: string,
): Promise<{ way: AnswerWay; turn?: GateTurn | undefined }> {
  if (view.assurance === 'link') return { way: { via: 'link' } };
  const way = await signedInWay(c, accounts);
  const decided = decideAnswerer(view, way);
  if (decided.ok) return { way };
  return { way, turn: turnFor(decided.refusal, token, accounts.isLinkHost(c.req.header('host')), publicUrl) };
}

/** The page's way of answering, with the account signed in on this browser, if any. */
export async function signedInWay(c: Context, accounts: PageAccounts): Promise<AnswerWay> {
  const userId = await accounts.signedInUser(c.req.header('cookie'));
  return userId === undefined ? { via: 'link' } : { via: 'link', userId };
}
