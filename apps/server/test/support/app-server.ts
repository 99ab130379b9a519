import { type AppServer, startAppServer as start } from '@sess/testkit/app-server';

export type { AppServer };

/** The real app on an ephemeral port (see @sess/testkit/app-server), with extra environment. */
export function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  return start({ env });
}
