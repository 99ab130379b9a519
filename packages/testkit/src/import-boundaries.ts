/**
 * The package arrows, as biome.json states them: one noRestrictedImports block per workspace over
 * its `src/**`, refusing the group `@sess/**` and then un-refusing (`!specifier`) each import on
 * the workspace's allow-list, so a package nobody listed is refused by default. The last override
 * frees the test files. Biome enforces the lists on the sources; this holds the lists to the
 * package.json files, so the two cannot drift and a new workspace cannot be forgotten.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The group every allow-list block refuses first. */
export const REFUSED = '@sess/**';
/** What the last override frees from the allow-lists: tests may import any workspace package. */
export const TEST_FILES = [
  'apps/*/src/**/*.test.ts',
  'apps/*/test/**',
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**',
  'packages/*/*/src/**/*.test.ts',
  'packages/*/*/test/**',
];
/**
 * @sess/client is published with its workspace packages bundled in (packages/host-free/client/scripts/build.mjs),
 * so it declares them as devDependencies; every other workspace declares them as dependencies.
 */
const DECLARED_AS_DEV = new Set(['@sess/client']);

export interface Workspace {
  /** Its directory from the repository root: `packages/service/forms`. */
  dir: string;
  name: string;
  /** The @sess/* packages its package.json declares for its sources. */
  declared: string[];
}

interface RestrictedImports {
  level?: string;
  options?: { patterns?: { group?: string[]; message?: string }[] };
}
interface BiomeOverride {
  includes?: string[];
  linter?: { rules?: { style?: { noRestrictedImports?: string | RestrictedImports } } };
}
export interface BiomeConfig {
  overrides?: BiomeOverride[];
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

export function readBiomeConfig(root: string): BiomeConfig {
  return readJson(join(root, 'biome.json')) as BiomeConfig;
}

/**
 * Every workspace directory: each folder of apps/ and packages/ with a package.json, and in a
 * folder that groups packages by purpose (packages/host-free, packages/service) each of its own.
 */
export function workspaceDirs(root: string): string[] {
  const isPackage = (dir: string) => existsSync(join(root, dir, 'package.json'));
  const folders = (dir: string) =>
    readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${dir}/${entry.name}`);
  return ['apps', 'packages'].flatMap((group) =>
    folders(group).flatMap((dir) => (isPackage(dir) ? [dir] : folders(dir).filter(isPackage))),
  );
}

export function readWorkspaces(root: string): Workspace[] {
  return workspaceDirs(root).map((dir) => {
    const manifest = readJson(join(root, dir, 'package.json')) as Record<string, Record<string, string> | undefined> & {
      name: string;
    };
    const field = DECLARED_AS_DEV.has(manifest.name) ? 'devDependencies' : 'dependencies';
    const declared = Object.keys(manifest[field] ?? {}).filter((name) => name.startsWith('@sess/'));
    return { dir, name: manifest.name, declared };
  });
}

/** `@sess/core/egress` → `@sess/core`. */
const packageOf = (specifier: string) => specifier.split('/').slice(0, 2).join('/');
const blockDir = (override: BiomeOverride) =>
  override.includes?.[0]?.match(/^((?:apps|packages)\/(?:[^/]+\/)?[^/]+)\/src\/\*\*$/)?.[1];

export interface AllowListBlock {
  /** The workspace directory its `includes` names: `packages/service/forms`. */
  dir: string;
  includes: string[];
  /** The specifiers it un-refuses, or undefined when the block is not shaped as an allow-list. */
  allowed?: string[];
  message?: string;
}

/** biome.json's allow-list blocks: the overrides whose first `includes` is a workspace's `src/**`. */
export function allowListBlocks(biome: BiomeConfig): AllowListBlock[] {
  return (biome.overrides ?? []).flatMap((override) => {
    const dir = blockDir(override);
    if (dir === undefined) return [];
    const rule = override.linter?.rules?.style?.noRestrictedImports;
    const pattern = typeof rule === 'object' && rule.level === 'error' ? rule.options?.patterns?.[0] : undefined;
    const [refused, ...exceptions] = pattern?.group ?? [];
    const shaped = refused === REFUSED && exceptions.every((exception) => exception.startsWith('!'));
    const allowed = shaped ? exceptions.map((exception) => exception.slice(1)) : undefined;
    return [{ dir, includes: override.includes ?? [], allowed, message: pattern?.message }];
  });
}

/** Every way biome.json's allow-lists and the workspaces disagree, one line each; none when they agree. */
export function boundaryProblems(biome: BiomeConfig, workspaces: Workspace[]): string[] {
  const problems: string[] = [];
  const blocks = allowListBlocks(biome);
  const known = new Set(workspaces.map((workspace) => workspace.dir));
  for (const block of blocks) {
    if (block.includes.length !== 1) problems.push(`the allow-list block of ${block.dir} must include only its src/**`);
    if (!known.has(block.dir)) problems.push(`biome.json has an allow-list block for ${block.dir}, which is no workspace`);
  }
  for (const { dir, name, declared } of workspaces) {
    const own = blocks.filter((block) => block.dir === dir);
    if (own.length !== 1) {
      problems.push(`${dir} (${name}) has ${own.length} allow-list blocks in biome.json, not one`);
      continue;
    }
    const { allowed, message } = own[0]!;
    if (allowed === undefined) {
      problems.push(`${dir}'s block must refuse "${REFUSED}" (level error) and then list only "!" exceptions`);
      continue;
    }
    if (!message?.startsWith(`${dir} `)) problems.push(`${dir}'s block has a message that does not name ${dir}`);
    if (allowed.join() !== [...new Set(allowed)].sort().join())
      problems.push(`${dir}'s allow-list is not sorted or repeats itself`);
    const allowedPackages = new Set(allowed.map(packageOf));
    for (const dependency of declared) {
      if (!allowedPackages.has(dependency)) problems.push(`${dir} declares ${dependency}, which its allow-list does not allow`);
    }
    for (const dependency of allowedPackages) {
      if (!declared.includes(dependency)) problems.push(`${dir} allows ${dependency}, which its package.json does not declare`);
    }
  }
  const last = biome.overrides?.at(-1);
  if (last?.linter?.rules?.style?.noRestrictedImports !== 'off' || last.includes?.join() !== TEST_FILES.join()) {
    problems.push(`biome.json's last override must turn noRestrictedImports off for exactly ${TEST_FILES.join(', ')}`);
  }
  return problems;
}

/**
 * Where the arrow table of docs/architecture.md (`packages/service/forms → contract, core, …  (notes)`,
 * specifiers without `@sess/`, `none` for an empty list) and biome.json's allow-lists disagree.
 */
export function arrowTableProblems(markdown: string, biome: BiomeConfig): string[] {
  const table = new Map<string, string>();
  for (const [, dir, arrows] of markdown.matchAll(/^((?:apps|packages)(?:\/[\w-]+){1,2}) +→ (.*)$/gm)) {
    const list = arrows!.split(' (')[0]!.trim();
    table.set(dir!, list === 'none' ? '' : list.split(/, */).sort().join(', '));
  }
  const problems: string[] = [];
  for (const { dir, allowed = [] } of allowListBlocks(biome)) {
    const expected = allowed.map((specifier) => specifier.replace(/^@sess\//, '')).join(', ');
    const listed = table.get(dir);
    if (listed === undefined) problems.push(`docs/architecture.md has no arrow line for ${dir}`);
    else if (listed !== expected)
      problems.push(`docs/architecture.md: ${dir} → ${listed || 'none'}, but biome.json allows ${expected || 'none'}`);
    table.delete(dir);
  }
  for (const dir of table.keys()) problems.push(`docs/architecture.md has an arrow line for ${dir}, which has no allow-list`);
  return problems;
}
