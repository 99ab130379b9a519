import type { ConnectView } from '../connect/connect-view.ts';

/**
 * What the account pages are given to render. Plain data: the pages import no data layer, and
 * every string in here is escaped by hono/jsx when rendered.
 */

/** Hidden form fields shared by every account form. */
export const ACCOUNT_FORM_FIELDS = { csrf: '_csrf', returnTo: 'return_to', token: 'token' } as const;

/** The sign-in page. */
export interface SignInView {
  /** Where the form sends the person after signing in (already checked as a same-origin path). */
  returnTo: string;
  csrf: string;
  /** The e-mail typed last time (kept on a failed attempt). */
  email?: string;
  /** A problem with the whole attempt ("Email or password is wrong."); marks both fields invalid. */
  error?: string;
  /** Problems with one field (e.g. an empty e-mail). */
  fieldErrors?: { email?: string; password?: string };
  /** A calm note above the form (e.g. "You are signed out."). */
  notice?: string;
  /** Where "Create an account" points, or null when sign-up is not open. */
  signupHref: string | null;
  /** The upstream OpenID provider button, when one is configured. */
  oidc: { name: string; action: string; csrf: string } | null;
  /** "Sign in with a passkey": the routes its script posts to and their CSRF token (a header). */
  passkey?: { csrf: string } | null;
}

/** The sign-up page: the form, or why there is no form. */
export interface SignUpView {
  returnTo: string;
  csrf: string;
  /** The sign-up link's token (first-account or invite), carried through the post. */
  token?: string;
  /** Why this person may sign up here: a link, or the open policy. */
  via: 'open' | 'first_account' | 'invite';
  email?: string;
  error?: string;
  fieldErrors?: { email?: string; password?: string };
  signinHref: string;
}

/** A workspace row on the account page. */
export interface AccountWorkspaceView {
  id: string;
  name: string;
  role: 'owner' | 'member';
}

/** The account overview (`/account`). */
export interface AccountView {
  email: string;
  workspaces: AccountWorkspaceView[];
  csrf: { signout: string; invite: string };
  /** An invite link just made: shown once, then never again. */
  createdInvite?: { workspaceName: string; url: string; expiresAt: Date };
  /** Whether invite links can be made at all (sign-up policy not `closed`). */
  invitesEnabled: boolean;
  links: { apiKeys: string; connectedApps: string; review: string; assurance: string; passkeys: string };
  /** The "Connect your agent" block (the same as on the home page). */
  connect: ConnectView;
  notice?: string;
}

/** A level a floor may be set to. */
export type AssuranceFloorChoice = 'link' | 'account' | 'passkey';

/** A workspace on the floors page: its API-key floor, which only its owners may change. */
export interface AssuranceWorkspaceView extends AccountWorkspaceView {
  /** `workspaces.api_key_assurance_floor`. */
  floor: string;
}

/** The floors page (`/account/assurance`). */
export interface AssuranceView {
  email: string;
  /** `users.assurance_floor`: the least assurance of a form this person's agents make. */
  personFloor: string;
  workspaces: AssuranceWorkspaceView[];
  csrf: { signout: string; person: string; workspace: string };
  notice?: string;
  error?: string;
}

/** One API key row (never the key itself). */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  workspaceName: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The API keys page (`/account/keys`). */
export interface ApiKeysView {
  email: string;
  /** Workspaces the person may make keys for. */
  workspaces: AccountWorkspaceView[];
  keys: ApiKeyView[];
  csrf: { create: string; revoke: string; signout: string };
  /** A key just made: its full value is on this response only. */
  createdKey?: { name: string; key: string; prefix: string };
  /** The values typed last time and what is wrong with them. */
  form?: { name?: string; workspaceId?: string };
  fieldErrors?: { name?: string; workspaceId?: string };
  notice?: string;
  error?: string;
}

/** A page that only says something (rate limit, refused form, closed link). */
export interface MessageView {
  title: string;
  message: string;
  /** A way on, e.g. back to sign-in. */
  link?: { href: string; label: string };
  tone?: 'error' | 'warn' | 'info';
}

/** One interaction an agent can no longer move on, waiting for its person. */
export interface ReviewItemView {
  handle: string;
  title: string;
  workspaceName: string;
  /** `blocked` or `create_unknown`. */
  state: string;
  /** What happened, in words (derived from the state and the blocked reason). */
  explanation: string;
  /** Started with one of the workspace's API keys (its owners review it): the key's name (null should its row be gone). */
  apiKey?: { name: string | null };
  /** Its form (session or Ask), when one was made: the timeline's link. */
  formId?: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A recent form on the review page: where its timeline is. */
export interface RecentFormView {
  formId: string;
  title: string;
  workspaceName: string;
  kind: 'interaction' | 'ask';
  createdAt: Date;
}

/** The "Interactions to review" page. */
export interface ReviewView {
  email: string;
  items: ReviewItemView[];
  /** The person's most recent forms (their agents', and their owned workspaces' API keys'), each to its timeline. */
  recent?: RecentFormView[];
  csrf: { retire: string; signout: string };
  notice?: string;
}

/** Where the passkey routes live (the page, its JSON ceremony routes, sign-in's). */
export const PASSKEY_PATHS = {
  page: '/account/passkeys',
  registerOptions: '/account/passkeys/options',
  register: '/account/passkeys',
  signInOptions: '/signin/passkey/options',
  signIn: '/signin/passkey',
} as const;

/** One passkey as listed (never its public key; its id only in its forms' actions). */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The passkeys page (`/account/passkeys`). */
export interface PasskeysView {
  email: string;
  passkeys: PasskeyView[];
  csrf: { register: string; rename: string; remove: string; signout: string };
  notice?: string;
  error?: string;
}

/** One line of an interaction's timeline, in words. */
export interface TimelineEntryView {
  at: Date;
  label: string;
}

/** `/account/interactions/<id>`: what happened to one interaction or Ask, oldest first. */
export interface TimelineView {
  email: string;
  title: string;
  workspaceName: string;
  kind: 'interaction' | 'ask';
  sessionId: string;
  entries: TimelineEntryView[];
  /** More than the page shows: the rest is in /v1 and the export. */
  more: boolean;
  csrf: { signout: string };
}
