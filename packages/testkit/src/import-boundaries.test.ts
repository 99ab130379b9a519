import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { arrowTableProblems, boundaryProblems, readBiomeConfig, readWorkspaces, type Workspace } from './import-boundaries.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const biome = readBiomeConfig(root);
const workspaces = readWorkspaces(root);

/** The real workspaces with one of them changed. */
const changed = (dir: string, change: (workspace: Workspace) => Workspace) =>
  workspaces.map((workspace) => (workspace.dir === dir ? change(workspace) : workspace));

describe('import boundaries (biome.json allow-lists against package.json)', () => {
  it('reads every workspace, apps and packages', () => {
    expect(workspaces.map((workspace) => workspace.dir)).toEqual(
      expect.arrayContaining([
        'apps/server',
        'apps/stdio',
        'apps/openclaw',
        'packages/host-free/core',
        'packages/service/forms',
        'packages/testkit',
      ]),
    );
    expect(workspaces.find((workspace) => workspace.dir === 'packages/service/forms')?.declared).toContain('@sess/db');
  });

  it('a host-free package imports only host-free packages (what the published packages bundle has no database)', () => {
    const hostFree = workspaces.filter((workspace) => workspace.dir.startsWith('packages/host-free/'));
    const names = new Set(hostFree.map((workspace) => workspace.name));
    expect(names).toEqual(
      new Set([
        '@sess/core',
        '@sess/surface',
        '@sess/contract',
        '@sess/receipts',
        '@sess/client',
        '@sess/interactions',
        '@sess/mcp',
        '@sess/file-store',
      ]),
    );
    const outside = hostFree.flatMap((workspace) =>
      workspace.declared.filter((name) => !names.has(name)).map((name) => `${workspace.name} → ${name}`),
    );
    expect(outside).toEqual([]);
  });

  it('every workspace has one allow-list, exactly the @sess/* packages its package.json declares', () => {
    expect(boundaryProblems(biome, workspaces)).toEqual([]);
  });

  it('names a workspace that has no allow-list block (a package added later cannot be forgotten)', () => {
    const added = [...workspaces, { dir: 'packages/new-thing', name: '@sess/new-thing', declared: ['@sess/core'] }];
    expect(boundaryProblems(biome, added)).toEqual([
      'packages/new-thing (@sess/new-thing) has 0 allow-list blocks in biome.json, not one',
    ]);
  });

  it('names a dependency the allow-list lacks, and an allowed package nothing declares', () => {
    const forms = changed('packages/service/forms', (workspace) => ({
      ...workspace,
      declared: [...workspace.declared.filter((name) => name !== '@sess/db'), '@sess/file-store'],
    }));
    expect(boundaryProblems(biome, forms)).toEqual([
      'packages/service/forms declares @sess/file-store, which its allow-list does not allow',
      'packages/service/forms allows @sess/db, which its package.json does not declare',
    ]);
  });

  it('names a block for a directory that is no workspace, and a lost test exemption', () => {
    const withoutCore = workspaces.filter((workspace) => workspace.dir !== 'packages/host-free/core');
    expect(boundaryProblems(biome, withoutCore)).toEqual([
      'biome.json has an allow-list block for packages/host-free/core, which is no workspace',
    ]);
    const noExemption = { overrides: biome.overrides?.slice(0, -1) };
    expect(boundaryProblems(noExemption, workspaces)).toEqual([
      expect.stringMatching(/^biome\.json's last override must turn noRestrictedImports off/),
    ]);
  });

  it('the arrow table of docs/architecture.md lists exactly the allow-lists, and a drifted line is named', () => {
    const markdown = readFileSync(`${root}docs/architecture.md`, 'utf8');
    expect(arrowTableProblems(markdown, biome)).toEqual([]);
    const drifted = markdown.replace(/^(packages\/service\/forms +→ )contract, /m, '$1');
    expect(arrowTableProblems(drifted, biome)).toEqual([
      'docs/architecture.md: packages/service/forms → core, db, receipts, surface, but biome.json allows contract, core, db, receipts, surface',
    ]);
  });
});
