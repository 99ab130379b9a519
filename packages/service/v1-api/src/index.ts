/*
 * @sess/v1-api: the `/v1` JSON routes and the JWKS route, thin adapters over @sess/forms' verbs.
 * See README.md.
 */
export { createJwksRoute, JWKS_PATH } from './jwks-route.ts';
export { readJsonBody, V1_BODY_LIMIT_BYTES } from './read-body.ts';
export { createV1Routes, type V1Env, type V1Principal, type V1RoutesDeps, WORKSPACE_HEADER } from './v1-routes.ts';
export type { V1WebhooksPort } from './webhook-routes.ts';
