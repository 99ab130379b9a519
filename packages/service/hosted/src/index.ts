export { API_KEY_PRINCIPAL_PREFIX } from './api-key-principal.ts';
export { createFormNotices, type FormNotices } from './form-notices.ts';
export {
  createPostgresHandleStore,
  type PostgresHandleStore,
  type PostgresHandleStoreOptions,
} from './handles/postgres-handle-store.ts';
export { createInProcessBackend, createRuntimeKeySet } from './in-process-backend.ts';
export {
  findHandleForReview,
  type HandleForReview,
  listHandlesForReview,
  REVIEW_STATES,
  retireHandle,
} from './review/owner-review.ts';
export { createReviewRoutes, type ReviewRoutesDeps } from './review/review-routes.ts';
export { createPostgresTaskStore } from './tasks/postgres-task-store.ts';
