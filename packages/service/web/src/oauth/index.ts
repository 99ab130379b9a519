export { renderConnectedAppsPage } from './connected-apps-page.tsx';
export { renderConsentPage } from './consent-page.tsx';
export { renderOAuthErrorPage } from './error-page.tsx';
export {
  type ClientView,
  type ConnectedAppsView,
  type ConnectedAppView,
  type ConsentView,
  OAUTH_FORM_FIELDS,
  type OAuthErrorView,
  type RedirectView,
} from './view.ts';
