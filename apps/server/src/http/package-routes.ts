import { htmlPage, pageLanguage, renderMessagePage } from '@sess/web';
import { Hono } from 'hono';
import { PACKAGES_PATH, SERVED_PACKAGE_IDS, type ServedPackageId, type ServedPackages } from '../packages/served-packages.ts';
import type { AppEnv } from './app-env.ts';

/** A content-named tarball never changes: cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const isServedId = (id: string): id is ServedPackageId => (SERVED_PACKAGE_IDS as readonly string[]).includes(id);

/**
 * `/packages`: the client packages built from this server's own version (issue 35), public
 * artifacts like the pages' stylesheet. `GET /packages/<id>-<hash>.tgz` is the tarball itself,
 * immutable; `GET /packages/<id>.tgz` redirects to the current one and is never cached (a new
 * build names another file). Anything else, or a server whose packages were never built, is a
 * 404 page that says which packages there are.
 */
export function createPackageRoutes(served: ServedPackages): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const byFile = new Map([...served.byId.values()].map((pkg) => [pkg.file, pkg]));

  app.get(`${PACKAGES_PATH}/:file`, (c) => {
    const file = c.req.param('file');
    const pkg = byFile.get(file);
    if (pkg) {
      if (c.req.header('if-none-match') === `"${pkg.sha256}"`)
        return c.body(null, 304, { ETag: `"${pkg.sha256}"`, 'Cache-Control': IMMUTABLE });
      return c.body(pkg.bytes as Uint8Array<ArrayBuffer>, 200, {
        'Content-Type': 'application/gzip',
        'Cache-Control': IMMUTABLE,
        ETag: `"${pkg.sha256}"`,
        'X-Content-Type-Options': 'nosniff',
        'Content-Disposition': `attachment; filename="${pkg.file}"`,
      });
    }
    const alias = /^([a-z-]+)\.tgz$/.exec(file)?.[1];
    const current = alias && isServedId(alias) ? served.byId.get(alias) : undefined;
    if (current) return c.body(null, 302, { Location: `${PACKAGES_PATH}/${current.file}`, 'Cache-Control': 'no-store' });
    return notFound(c.req.raw);
  });
  app.get(PACKAGES_PATH, (c) => notFound(c.req.raw));
  app.get(`${PACKAGES_PATH}/`, (c) => notFound(c.req.raw));

  function notFound(request: Request): Response {
    const language = pageLanguage(request);
    const m = language.messages;
    const listed = [...served.byId.values()].map((pkg) => `${PACKAGES_PATH}/${pkg.file} (${pkg.name} ${pkg.version})`);
    const message = listed.length > 0 ? m.t('errors.package.message', { packages: m.list(listed) }) : m.t('errors.package.none');
    const page = {
      title: m.t('errors.package.title'),
      message,
      tone: 'warn' as const,
      link: { href: '/', label: m.t('errors.package.home') },
    };
    return htmlPage(404, (nonce) => renderMessagePage(page, nonce), { headers: { 'Cache-Control': 'no-store' }, language });
  }
  return app;
}
