export { AccountHeader, AccountPage, renderAccountPage } from './account-page.tsx';
export { ApiKeysPage, renderApiKeysPage } from './api-keys-page.tsx';
export {
  ASSURANCE_FORM_FIELDS,
  ASSURANCE_PATH,
  AssurancePage,
  renderAssurancePage,
  WORKSPACE_ASSURANCE_PATH,
} from './assurance-page.tsx';
export { MessagePage, renderMessagePage } from './message-page.tsx';
export { formatWhen, SignOutForm } from './parts.tsx';
export { passkeyRefusalText } from './passkey-refusal.ts';
export { PASSKEY_SCRIPT } from './passkey-script.ts';
export { PasskeysPage, renderPasskeysPage } from './passkeys-page.tsx';
export { RETIRE_PATH, REVIEW_FORM_FIELDS, REVIEW_PATH, ReviewPage, renderReviewPage } from './review-page.tsx';
export { renderSignInPage, SignInPage } from './sign-in-page.tsx';
export { renderSignUpPage, SignUpPage } from './sign-up-page.tsx';
export { renderTimelinePage, TimelinePage, timelinePath } from './timeline-page.tsx';
export {
  ACCOUNT_FORM_FIELDS,
  type AccountView,
  type AccountWorkspaceView,
  type ApiKeysView,
  type ApiKeyView,
  type AssuranceFloorChoice,
  type AssuranceView,
  type AssuranceWorkspaceView,
  type MessageView,
  PASSKEY_PATHS,
  type PasskeysView,
  type PasskeyView,
  type ReviewItemView,
  type ReviewView,
  type SignInView,
  type SignUpView,
  type TimelineEntryView,
  type TimelineView,
} from './view.ts';
export {
  renderWebhooksPage,
  WEBHOOKS_PATH,
  type WebhookAttemptView,
  type WebhookDeliveryRowView,
  type WebhookEndpointRowView,
  WebhooksPage,
  type WebhooksView,
} from './webhooks-page.tsx';
