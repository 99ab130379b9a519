import type { Db } from '@sess/db';
import type { NotifySealers } from '@sess/notify';
import type { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';

export interface NotificationRoutesDeps {
  db: Db;
  secret: string;
  sealers: NotifySealers;
  now: () => Date;
  /** Outside production a push service on a loopback http address is accepted (tests run one). */
  allowLoopbackHttpEndpoints: boolean;
}

/** `/account/notifications` and the web app's files (manifest, icons, service worker). In progress (issue 16). */
export function mountNotificationRoutes(_app: Hono<AppEnv>, _deps: NotificationRoutesDeps): void {}
