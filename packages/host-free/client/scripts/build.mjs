#!/usr/bin/env node
// Builds the publishable @sess/client into dist/, which is the package as published
// (`npm publish ./dist`, `npm pack ./dist`): one ESM file (esbuild), one .d.ts (tsc emits a
// declaration per source file, then rollup-plugin-dts bundles those), the README and its own
// package.json. In the workspace the package is its source (package.json exports src/index.ts),
// like every other workspace package. The workspace packages it uses (@sess/contract, surface,
// receipts, core) are bundled into both files, so the published package depends only on what its
// package.json lists. The build fails if the output imports anything else.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(dirname(root));
// `--out <dir>` builds elsewhere (the server's package step and the release build in parallel, each into its own directory).
const outFlag = process.argv.indexOf('--out');
if (outFlag !== -1 && !process.argv[outFlag + 1]) throw new Error('--out needs a directory');
const dist = outFlag === -1 ? join(root, 'dist') : resolve(process.argv[outFlag + 1]);
// The output directory is emptied first: never the package, the repository or one holding them.
if (!relative(dist, root).startsWith('..') || !relative(dist, repo).startsWith('..'))
  throw new Error(`refusing to build into ${dist}: it holds the sources`);
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const dependencies = Object.keys(pkg.dependencies ?? {});
// A dependency's subpath (zod/v4) is that dependency.
const isDependency = (id) => dependencies.some((name) => id === name || id.startsWith(`${name}/`));
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/**
 * Our workspace sources have no import-time side effects (zod schemas and constants only), but
 * their package.json files do not say so. Marking them lets esbuild drop whole modules that the
 * client never reaches: the logger (pino), the sealer, the OpenAPI generator, the tools.
 */
const workspaceSideEffectFree = {
  name: 'workspace-side-effect-free',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.resolving || args.kind === 'entry-point') return undefined;
      const result = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (result.errors.length > 0 || result.external) return result;
      const inRepoSource = !relative(repo, result.path).startsWith('..') && result.path.split(sep).includes('src');
      return inRepoSource && !result.path.includes(`${sep}node_modules${sep}`) ? { ...result, sideEffects: false } : result;
    });
  },
};

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });

const started = Date.now();
const js = await esbuild.build({
  entryPoints: [join(root, 'src/index.ts')],
  outfile: join(dist, 'index.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: dependencies.flatMap((name) => [name, `${name}/*`]),
  plugins: [workspaceSideEffectFree],
  treeShaking: true,
  legalComments: 'none',
  sourcemap: false,
  metafile: true,
  logLevel: 'warning',
  banner: { js: `// @sess/client ${pkg.version} (Apache-2.0). Bundled from the Sess repository; do not edit.` },
});

// What the bundle imports must be a listed dependency or a Node built-in, nothing else.
const imported = new Set(Object.values(js.metafile.outputs).flatMap((output) => output.imports.map((i) => i.path)));
const stray = [...imported].filter((id) => !isDependency(id) && !builtins.has(id));
if (stray.length > 0) throw new Error(`dist/index.js imports what package.json does not list: ${stray.join(', ')}`);
// Modules that put bytes into the output (esbuild parses more than it keeps).
const inputs = Object.values(js.metafile.outputs).flatMap((output) =>
  Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path),
);
const forbidden = inputs.filter((path) => /(?:^|\/)(?:pino|drizzle-orm|postgres|hono|@hono)(?:\/|$)/.test(path));
if (forbidden.length > 0) throw new Error(`the bundle contains server code: ${forbidden.join(', ')}`);

// Declarations, in two steps. rollup-plugin-dts cannot be given our .ts sources: it resolves
// @sess/* through node_modules, counts those files as external libraries and makes a whole new
// TypeScript program (type-checking zod's inference again) for every one of them, which ran for
// minutes and then out of heap. So: (1) one tsc run emits a .d.ts per source file of the client
// and of the workspace packages it reaches (paths point @sess/* at their sources, so they are
// emitted, not treated as libraries); the repository's typescript is v7 (tsgo), seconds for
// this; (2) rollup-plugin-dts bundles those .d.ts files, which it only parses.
// A directory of its own, so two builds at once never share their emitted files.
const work = await mkdtemp(join(tmpdir(), 'sess-client-dts-'));
const require = createRequire(import.meta.url);
const workspace = Object.keys(pkg.devDependencies ?? {}).filter((name) => name.startsWith('@sess/'));
/** Each workspace package's entry (its `exports["."]`, a .ts source). */
const entries = Object.fromEntries(workspace.map((name) => [name, require.resolve(name)]));
const packagesDir = dirname(root);
const emitted = join(work, 'out');
const tsconfig = {
  compilerOptions: {
    target: 'ES2023',
    lib: ['ES2023', 'DOM'],
    module: 'preserve',
    moduleResolution: 'bundler',
    strict: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    isolatedModules: true,
    skipLibCheck: true,
    types: [],
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: packagesDir,
    outDir: emitted,
    paths: Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, [entry]])),
  },
  files: [join(root, 'src/index.ts')],
};
await writeFile(join(work, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
// The repository's typescript by its own bin (node_modules/.bin/tsc may be another copy's).
const typescriptManifest = require.resolve('typescript/package.json');
const tscBin = join(dirname(typescriptManifest), JSON.parse(await readFile(typescriptManifest, 'utf8')).bin.tsc);
// Single-threaded: once (in CI, under load) a parallel emit exited 0 with one .d.ts missing; one
// thread is as fast for these ~60 files. Any output at all is a failure too: a clean run prints nothing.
const tsc = spawnSync(process.execPath, [tscBin, '--singleThreaded', '-p', join(work, 'tsconfig.json')], {
  encoding: 'utf8',
});
if (tsc.status !== 0 || tsc.stdout.trim() !== '' || tsc.stderr.trim() !== '') {
  await rm(work, { recursive: true, force: true });
  throw new Error(`tsc could not emit the declarations:\n${tsc.stdout}${tsc.stderr}`);
}

/** An emitted file's path for a source file's path. */
const emittedPath = (source) => join(emitted, relative(packagesDir, source)).replace(/\.ts$/, '.d.ts');
const workspaceEntries = new Map(Object.entries(entries).map(([name, entry]) => [name, emittedPath(entry)]));
// The emitted files keep the sources' specifiers ('./common.ts', '@sess/core'): point them at the
// emitted files, so rollup-plugin-dts finds every one in the one program it makes for the entry.
const pointAtDeclarations = {
  name: 'point-at-declarations',
  resolveId(source, importer) {
    if (!importer) return null;
    const workspaceEntry = workspaceEntries.get(source);
    if (workspaceEntry) return workspaceEntry;
    if (source.startsWith('.') && source.endsWith('.ts') && !source.endsWith('.d.ts')) {
      return join(dirname(importer), source).replace(/\.ts$/, '.d.ts');
    }
    return null;
  },
};
const bundle = await rollup({
  input: emittedPath(join(root, 'src/index.ts')),
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !workspaceEntries.has(id),
  // 100 is ts.ModuleResolutionKind.Bundler: the program rollup-plugin-dts makes for the entry then
  // follows './x.ts' specifiers to the emitted .d.ts files (Node10, its default, would not).
  plugins: [pointAtDeclarations, dts({ compilerOptions: { moduleResolution: 100 } })],
  onwarn(warning, warn) {
    // Type-only circular imports inside the contract are harmless in a declaration bundle.
    if (warning.code === 'CIRCULAR_DEPENDENCY') return;
    warn(warning);
  },
});
const { output } = await bundle.generate({ format: 'es' });
await bundle.close();
await rm(work, { recursive: true, force: true });
const declarations = output.find((chunk) => chunk.type === 'chunk');
if (!declarations) throw new Error('rollup-plugin-dts produced no declaration chunk');
const dtsImports = [...declarations.code.matchAll(/(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
if (/^\/\/\/\s*<reference/m.test(declarations.code))
  throw new Error('dist/index.d.ts has a triple-slash reference (a consumer may lack it)');
const strayTypes = dtsImports.filter((id) => !isDependency(id));
if (strayTypes.length > 0) throw new Error(`dist/index.d.ts imports what package.json does not list: ${strayTypes.join(', ')}`);
await writeFile(join(dist, 'index.d.ts'), declarations.code);

// The published manifest: what a consumer installs, without the workspace's scripts, private
// flag or development dependencies.
const published = {
  name: pkg.name,
  version: pkg.version,
  description: pkg.description,
  license: pkg.license,
  type: 'module',
  exports: { '.': { types: './index.d.ts', import: './index.js' }, './package.json': './package.json' },
  files: ['index.js', 'index.d.ts', 'README.md'],
  sideEffects: false,
  engines: pkg.engines,
  dependencies: pkg.dependencies,
  // scripts/release.mjs publishes it: public (a scoped package is private by default), with provenance.
  publishConfig: { access: 'public', provenance: true },
};
await writeFile(join(dist, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
await copyFile(join(root, 'README.md'), join(dist, 'README.md'));

const size = async (file) => (await stat(join(dist, file))).size;
process.stdout.write(
  `@sess/client ${pkg.version}: index.js ${await size('index.js')} B, index.d.ts ${await size('index.d.ts')} B ` +
    `(${inputs.length} modules bundled; imports ${[...imported].sort().join(', ')}) in ${Date.now() - started} ms\n`,
);
