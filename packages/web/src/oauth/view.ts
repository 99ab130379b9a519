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
  grant: 'grant_id',
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
  title: string;
  message: string;
}

/** One connected app on `/account/apps`. */
export interface ConnectedAppView {
  grantId: string;
  client: ClientView;
  redirectHost: string;
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
