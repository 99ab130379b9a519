/*
 * The one place this package reaches @sess/client. Its package.json `exports` point at the
 * published build (dist/, made by its own build script and not checked in), which a workspace
 * checkout does not have, so the source is imported here until the client gains a source export
 * condition. Everything else in this package imports from this file, never from the client directly.
 */
export {
  type CallOptions,
  createSessClient,
  isSessClientError,
  type SessClient,
  SessClientError,
  type SessClientErrorInit,
  type SessClientOptions,
  type SessResult,
  type WriteOptions,
} from '../../../client/src/index.ts';
