/* How a bench starts a server: as production runs it, bundled. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The node arguments that run `entry` (a path from the repository root): bundled by
 * scripts/build.mjs into `outfile`, as production runs the server (no tsx, whose keepNames makes
 * every closure define a property when it is created); BENCH_SOURCE=1 runs the source under tsx.
 */
export function serverEntry(entry: string, outfile: string): string[] {
  if (process.env.BENCH_SOURCE === '1') return ['--import', 'tsx', join(ROOT, entry)];
  execFileSync(process.execPath, ['scripts/build.mjs', '--entry', entry, '--outfile', join(ROOT, outfile)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  return [join(ROOT, outfile)];
}
