import type { ConnectView } from '../connect/connect-view.ts';

/** The home page (`/`): plain data, escaped by hono/jsx when rendered. */
export interface HomeView {
  connect: ConnectView;
  /** Who is signed in (the page then offers "Your account"), or null (Sign in / Create account). */
  signedIn: { email: string; signoutCsrf: string } | null;
  signinHref: string;
  /** Where "Create account" points, or null when sign-up needs an invite link or is closed. */
  signupHref: string | null;
  accountHref: string;
}
