import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ServedPackageUrls } from '@sess/web';
import { z } from 'zod';

/** The packages a server serves, by the id that names their tarballs (scripts/packages/client-packages.mjs). */
export const SERVED_PACKAGE_IDS = ['sess-mcp', 'sess-openclaw', 'sess-client'] as const;
export type ServedPackageId = (typeof SERVED_PACKAGE_IDS)[number];

/** The path every tarball is served under. */
export const PACKAGES_PATH = '/packages';

/** manifest.json as scripts/build-packages.mjs writes it (format 1). */
const ManifestSchema = z.object({
  format: z.literal(1),
  inputs: z.string(),
  packages: z.array(
    z.object({
      id: z.enum(SERVED_PACKAGE_IDS),
      name: z.string().min(1),
      version: z.string().min(1),
      // Only a plain name in the directory: the manifest never points anywhere else.
      file: z.string().regex(/^[a-z][a-z-]*-[0-9a-f]{12}\.tgz$/),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      integrity: z.string(),
      size: z.number().int().positive(),
    }),
  ),
});

export interface ServedPackage {
  id: ServedPackageId;
  name: string;
  version: string;
  /** `<id>-<sha256 prefix>.tgz`: its content's name, served immutable. */
  file: string;
  sha256: string;
  /** npm's integrity of the tarball (`sha512-…`). */
  integrity: string;
  bytes: Uint8Array;
}

export interface ServedPackages {
  /** By id; empty when the directory holds no usable manifest. */
  byId: ReadonlyMap<ServedPackageId, ServedPackage>;
  /** Why some or all packages are not served (no build yet, a tarball that does not match), for the start-up log. */
  problem: string | undefined;
}

/**
 * Reads the packed client packages from `dir` once, at start: the manifest, and each tarball,
 * kept only when its bytes hash to what the manifest says (an immutable URL must never change
 * content). They are small (a few hundred KiB together) and held in memory, so serving one
 * never touches the disk. Never throws: what cannot be used is left out and named in `problem`.
 */
export function loadServedPackages(dir: string): ServedPackages {
  const byId = new Map<ServedPackageId, ServedPackage>();
  const manifestPath = join(resolve(dir), 'manifest.json');
  let text: string;
  try {
    text = readFileSync(manifestPath, 'utf8');
  } catch {
    return { byId, problem: `no ${manifestPath}: build the packages with npm run build (scripts/build-packages.mjs)` };
  }
  let parsed: z.infer<typeof ManifestSchema>;
  try {
    parsed = ManifestSchema.parse(JSON.parse(text));
  } catch {
    return { byId, problem: `${manifestPath} is not a manifest this server reads: rebuild with npm run build` };
  }
  const problems: string[] = [];
  for (const entry of parsed.packages) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(join(resolve(dir), entry.file));
    } catch {
      problems.push(`${entry.file} is missing`);
      continue;
    }
    if (createHash('sha256').update(bytes).digest('hex') !== entry.sha256) {
      problems.push(`${entry.file} does not match its hash`);
      continue;
    }
    byId.set(entry.id, {
      id: entry.id,
      name: entry.name,
      version: entry.version,
      file: entry.file,
      sha256: entry.sha256,
      integrity: entry.integrity,
      bytes,
    });
  }
  const absent = SERVED_PACKAGE_IDS.filter((id) => !byId.has(id));
  if (absent.length > 0 && problems.length === 0) problems.push(`the manifest lists no ${absent.join(', ')}`);
  return {
    byId,
    problem: problems.length > 0 ? `${problems.join('; ')} (in ${resolve(dir)}): rebuild with npm run build` : undefined,
  };
}

/** The tarball URLs under `publicUrl` for the pages' install lines, when every package is served. */
export function servedPackageUrls(served: ServedPackages, publicUrl: string): ServedPackageUrls | undefined {
  const url = (id: ServedPackageId) => {
    const pkg = served.byId.get(id);
    return pkg ? `${publicUrl}${PACKAGES_PATH}/${pkg.file}` : undefined;
  };
  const sessMcp = url('sess-mcp');
  const openclaw = url('sess-openclaw');
  const client = url('sess-client');
  return sessMcp && openclaw && client ? { sessMcp, openclaw, client } : undefined;
}
