import type { RootLogger } from '@sess/core';
import type { RequestIdVariables } from 'hono/request-id';

/** What every route can read from the context, typed once for all. */
export interface AppEnv {
  Variables: RequestIdVariables & {
    /** The request's child logger: carries `requestId` (and the workspace once known). */
    logger: RootLogger;
  };
}
