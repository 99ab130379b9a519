import { ICON_SVG, iconPng, PWA_PATHS, serviceWorkerScript, WEB_MANIFEST } from '@sess/web';
import type { Hono } from 'hono';
import type { NotifyPagesEnv } from './env.ts';

const FILE_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=3600' };

/**
 * The installable web app's files, on PUBLIC_URL only (SESS_LINK_URL's host refuses them: see
 * apps/server's link-host.ts): the manifest, the icons, and the service worker, which is never cached
 * (`no-cache`: a fixed worker reaches every device at its next check) and may control the whole
 * origin (`Service-Worker-Allowed: /`). `linkOrigins` (PUBLIC_URL's and SESS_LINK_URL's) are the
 * origins whose answer links a notification may open.
 */
export function mountWebAppFiles(app: Hono<NotifyPagesEnv>, linkOrigins: readonly string[]): void {
  const worker = serviceWorkerScript(linkOrigins);
  app.get(PWA_PATHS.manifest, (c) =>
    c.body(WEB_MANIFEST, 200, { ...FILE_HEADERS, 'Content-Type': 'application/manifest+json; charset=utf-8' }),
  );
  app.get(PWA_PATHS.iconSvg, (c) => c.body(ICON_SVG, 200, { ...FILE_HEADERS, 'Content-Type': 'image/svg+xml' }));
  const png = (size: 180 | 192 | 512) => () =>
    new Response(new Uint8Array(iconPng(size)), { status: 200, headers: { ...FILE_HEADERS, 'Content-Type': 'image/png' } });
  app.get(PWA_PATHS.icon192, png(192));
  app.get(PWA_PATHS.icon512, png(512));
  app.get(PWA_PATHS.appleTouchIcon, png(180));
  app.get(PWA_PATHS.serviceWorker, (c) =>
    c.body(worker, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Service-Worker-Allowed': '/',
      'X-Content-Type-Options': 'nosniff',
      // The worker's own policy: it loads its icon and posts a renewed subscription to this
      // origin (pushsubscriptionchange), and runs no other script.
      'Content-Security-Policy': "default-src 'none'; img-src 'self'; connect-src 'self'",
    }),
  );
}
