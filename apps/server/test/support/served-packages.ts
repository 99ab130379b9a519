import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A packages directory as scripts/build-packages.mjs writes it, with stand-in tarballs (the
 * server checks only that each one's bytes match its hash): for page tests, which need the install
 * lines of a server that serves its packages without building them. Remove `dir` after.
 */
export async function writeStandInPackages(): Promise<{ dir: string; files: Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'sess-stand-in-packages-'));
  const files: Record<string, string> = {};
  const packages = [];
  for (const [id, name] of [
    ['sess-mcp', '@sess.si/mcp'],
    ['sess-openclaw', '@sess.si/openclaw'],
    ['sess-client', '@sess/client'],
  ] as const) {
    const bytes = Buffer.from(`stand-in tarball of ${name}`);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const file = `${id}-${sha256.slice(0, 12)}.tgz`;
    await writeFile(join(dir, file), bytes);
    files[id] = file;
    packages.push({ id, name, version: '0.1.0', file, sha256, integrity: 'sha512-standin', size: bytes.length });
  }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify({ format: 1, inputs: '0'.repeat(64), packages }));
  return { dir, files };
}
