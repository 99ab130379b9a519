/**
 * What the OAuth pages are given to render: plain data, escaped by hono/jsx when rendered. The
 * pages import no data layer.
 */

/** Form field names of the consent and connected-apps forms. */
export const OAUTH_FORM_FIELDS = {
  csrf: '_csrf',
  request: 'request',
  workspace: 'workspace_id',
  decision: 'decision',
  /** Disconnect names its row by the app and the workspace (`workspace_id`), not by one grant. */
  app: 'app',
} as const;

/** The app asking for access, as a person should see it. */
export interface ClientView {
  name: string;
  /**
   * `verified`: the name comes from a metadata document served by `identity` (an https host).
   * Otherwise the app chose its own name at registration, and the page says so.
   */
  verified: boolean;
  identity: string | null;
}

/** Where the answer goes after Allow or Deny. */
export interface RedirectView {
  host: string;
  /** `loopback`: this computer (warn: any local program can listen there); `app`: a private-use scheme. */
  kind: 'web' | 'loopback' | 'app';
}

/** The consent page (`GET /oauth/authorize`, signed in). */
export interface ConsentView {
  email: string;
  client: ClientView;
  redirect: RedirectView;
  /** What the app will be able to do, one sentence each. */
  permissions: string[];
  /** The person's workspaces (at least one). With several, a picker is shown. */
  workspaces: Array<{ id: string; name: string }>;
  selectedWorkspaceId?: string;
  form: { action: string; request: string; csrf: string };
  signoutCsrf: string;
  error?: string;
}

/** A page for an authorization request that cannot go on (never redirected to the client). */
export interface OAuthErrorView {
  /** The heading, in the page's language. */
  title: string;
  /** What happened, in the page's language. */
  message: string;
  /** The OAuth error's description, for the app's makers (English, as the protocol response says it). */
  detail?: string;
  /** A way back within Sess (a refused disconnect); without it the page says to start again from the app. */
  back?: { href: string; label: string };
}

/** One app × workspace on `/account/apps` (however many registrations and grants it took). */
export interface ConnectedAppView {
  /** The app's key, posted back by Disconnect with `workspaceId`. */
  app: string;
  workspaceId: string;
  client: ClientView;
  /** Where its grants send the person back (one host, or a few when it connected from several places). */
  redirectHosts: string[];
  workspaceName: string;
  permissions: string[];
  connectedAt: Date;
  lastUsedAt: Date | null;
}

/** The connected-apps page. */
export interface ConnectedAppsView {
  email: string;
  apps: ConnectedAppView[];
  csrf: { disconnect: string; signout: string };
  notice?: string;
}
