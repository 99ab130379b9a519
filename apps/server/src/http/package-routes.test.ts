import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadServedPackages, servedPackageUrls } from '../packages/served-packages.ts';
import { createPackageRoutes } from './package-routes.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A packages directory as scripts/build-packages.mjs writes it: a tarball per id (here any bytes) and manifest.json. */
async function packagesDir(
  ids: string[] = ['sess-mcp', 'sess-openclaw', 'sess-client'],
  tamper?: (entry: Record<string, unknown>) => void,
): Promise<{ dir: string; files: Record<string, string>; bytes: Record<string, Uint8Array> }> {
  const dir = await mkdtemp(join(tmpdir(), 'sess-packages-'));
  dirs.push(dir);
  const files: Record<string, string> = {};
  const bytes: Record<string, Uint8Array> = {};
  const packages = [];
  for (const id of ids) {
    const content = new TextEncoder().encode(`tarball of ${id}`);
    const hash = sha256(content);
    const file = `${id}-${hash.slice(0, 12)}.tgz`;
    await writeFile(join(dir, file), content);
    files[id] = file;
    bytes[id] = content;
    const entry = { id, name: `@x/${id}`, version: '0.1.0', file, sha256: hash, integrity: 'sha512-x', size: content.length };
    tamper?.(entry);
    packages.push(entry);
  }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ format: 1, inputs: 'a'.repeat(64), packages }));
  return { dir, files, bytes };
}

describe('loadServedPackages', () => {
  it('serves every package whose tarball matches its hash; the pages get their URLs under PUBLIC_URL', async () => {
    const { dir, files } = await packagesDir();
    const served = loadServedPackages(dir);
    expect(served.problem).toBeUndefined();
    expect([...served.byId.keys()].sort()).toEqual(['sess-client', 'sess-mcp', 'sess-openclaw']);
    expect(servedPackageUrls(served, 'https://sess.example.com')).toEqual({
      sessMcp: `https://sess.example.com/packages/${files['sess-mcp']}`,
      openclaw: `https://sess.example.com/packages/${files['sess-openclaw']}`,
      client: `https://sess.example.com/packages/${files['sess-client']}`,
    });
  });

  it('no manifest: nothing served, and the problem says how to build them (never a throw)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sess-packages-'));
    dirs.push(dir);
    const served = loadServedPackages(join(dir, 'missing'));
    expect(served.byId.size).toBe(0);
    expect(served.problem).toMatch(/no .*manifest\.json: build the packages with npm run build/);
    expect(servedPackageUrls(served, 'https://sess.example.com')).toBeUndefined();
  });

  it('a tarball whose bytes do not match the manifest, or a manifest that names a path, is left out', async () => {
    const changed = await packagesDir(undefined, (entry) => {
      if (entry.id === 'sess-mcp') entry.sha256 = 'b'.repeat(64);
    });
    const served = loadServedPackages(changed.dir);
    expect([...served.byId.keys()].sort()).toEqual(['sess-client', 'sess-openclaw']);
    expect(served.problem).toContain(`${changed.files['sess-mcp']} does not match its hash`);
    // Only whole sets give install lines: a page never shows two lines that work and one that does not.
    expect(servedPackageUrls(served, 'https://sess.example.com')).toBeUndefined();

    const escaping = await packagesDir(['sess-mcp'], (entry) => {
      entry.file = '../../etc/passwd';
    });
    const refused = loadServedPackages(escaping.dir);
    expect(refused.byId.size).toBe(0);
    expect(refused.problem).toContain('is not a manifest this server reads');
  });
});

describe('GET /packages/*', () => {
  it('a content-named tarball: 200, its bytes, immutable, with its hash as ETag (304 when the client has it)', async () => {
    const { dir, files, bytes } = await packagesDir();
    const app = createPackageRoutes(loadServedPackages(dir));
    const response = await app.request(`/packages/${files['sess-mcp']}`);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes['sess-mcp']);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toBe('application/gzip');
    const etag = response.headers.get('etag');
    expect(etag).toBe(`"${sha256(bytes['sess-mcp']!)}"`);
    const again = await app.request(`/packages/${files['sess-mcp']}`, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
  });

  it('the stable alias <id>.tgz: 302 to the current tarball, never cached', async () => {
    const { dir, files } = await packagesDir();
    const app = createPackageRoutes(loadServedPackages(dir));
    for (const id of ['sess-mcp', 'sess-openclaw', 'sess-client']) {
      const response = await app.request(`/packages/${id}.tgz`);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe(`/packages/${files[id]}`);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('anything else is a 404 page naming what is served; a server without packages says how they are built', async () => {
    const { dir, files } = await packagesDir();
    const app = createPackageRoutes(loadServedPackages(dir));
    for (const path of ['/packages/sess-mcp-000000000000.tgz', '/packages/other.tgz', '/packages', '/packages/manifest.json']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain(`/packages/${files['sess-mcp']} (@x/sess-mcp 0.1.0)`);
    }
    const empty = createPackageRoutes(loadServedPackages(join(dir, 'nothing-here')));
    for (const path of [`/packages/${files['sess-mcp']}`, '/packages/sess-mcp.tgz']) {
      const response = await empty.request(path);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain('This server has no client packages to give');
    }
  });
});
