import type { Logger } from '@sess/core';

/** What these routes read from the context: the request's logger, which the app's request logger sets. */
export interface NotifyPagesEnv {
  Variables: { logger: Logger };
}
