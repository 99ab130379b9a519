#!/usr/bin/env node
// Builds the publishable Sess MCP server into dist/, which is the package as published under the
// seed's name, @sess.si/mcp (`npm pack ./dist`, `npm publish ./dist`); in the workspace the package
// is its source (@sess/stdio, package.json exports src/*.ts), like every other workspace package.
//
//   dist/sess-mcp.js   the `sess-mcp` bin (shebang; runs src/cli.ts's main on the process's stdio)
//   dist/index.js      "."       src/index.ts
//   dist/http.js       "./http"  src/http.ts: createSessMcpHttpHandler, the HTTP composition
//   dist/*.d.ts        one bundled declaration file per export (tsc emits, rollup-plugin-dts bundles)
//   dist/README.md, dist/package.json (generated: bin, exports, and the runtime dependencies only)
//
// Our workspace packages (@sess/*) are bundled. Every other package stays an import, and the
// published manifest lists exactly the packages the output imports, each at the range the
// workspace declares for it (apps/stdio's own package.json first, else the bundled workspace
// package that uses it). The build fails if the output imports a package no bundled source
// declares, if the bundle holds server code (drizzle, postgres, PGlite, hono), or if a
// declaration file imports anything a consumer does not get.
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

/** The seed's package name; the workspace calls the package @sess/stdio. */
const PUBLISHED_NAME = '@sess.si/mcp';
const BIN_NAME = 'sess-mcp';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(dirname(root));
// `--out <dir>` builds elsewhere (tests build in parallel, each into its own directory).
const outFlag = process.argv.indexOf('--out');
if (outFlag !== -1 && !process.argv[outFlag + 1]) throw new Error('--out needs a directory');
const dist = outFlag === -1 ? join(root, 'dist') : resolve(process.argv[outFlag + 1]);
// The output directory is emptied first: never the package, the repository or one holding them.
if (!relative(dist, root).startsWith('..') || !relative(dist, repo).startsWith('..'))
  throw new Error(`refusing to build into ${dist}: it holds the sources`);
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const require = createRequire(import.meta.url);

/** The entry points: output name → source. The bin is its own entry so it alone has the shebang. */
const ENTRIES = {
  [BIN_NAME]: join(root, 'scripts', 'published-bin.ts'),
  index: join(root, 'src', 'index.ts'),
  http: join(root, 'src', 'http.ts'),
};
/** The exports that get declarations (the bin has none). */
const TYPED = ['index', 'http'];

/** A bare specifier's package name: `zod/v4` → `zod`, `@a/b/c` → `@a/b`. */
const packageOf = (id) =>
  id
    .split('/')
    .slice(0, id.startsWith('@') ? 2 : 1)
    .join('/');
const isBare = (id) => !id.startsWith('.') && !id.startsWith('/') && !builtins.has(id) && !id.startsWith('node:');

// --- the workspace: every package's manifest, by name --------------------------------------------
/** name → { dir, manifest } for every workspace package (packages/<group>/*, packages/testkit and apps/*). */
const workspace = new Map();
/** A folder's packages: itself when it has a manifest, else those in it, `depth` levels down (packages/host-free/core). */
async function addPackages(dir, depth) {
  const manifest = await readFile(join(dir, 'package.json'), 'utf8').then(JSON.parse, () => undefined);
  if (manifest?.name) return void workspace.set(manifest.name, { dir, manifest });
  if (depth === 0) return;
  for (const entry of await readdir(dir, { withFileTypes: true }))
    if (entry.isDirectory()) await addPackages(join(dir, entry.name), depth - 1);
}
for (const group of ['packages', 'apps']) await addPackages(join(repo, group), 2);
const isWorkspace = (id) => workspace.has(packageOf(id));
/** The workspace package a source file belongs to (its nearest manifest in the repository). */
function workspaceOf(file) {
  for (const [name, { dir }] of workspace) if (file.startsWith(`${dir}${sep}`)) return name;
  return undefined;
}

/**
 * Our workspace sources have no import-time side effects (schemas, constants, factories), but
 * their package.json files do not say so. Marking them lets esbuild drop whole modules the server
 * never reaches (the OpenAPI generator behind @sess/contract's index, for one).
 * Every bare import that is not ours stays external, to be installed from the registry.
 */
const resolveForPublishing = {
  name: 'resolve-for-publishing',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData?.resolving || args.kind === 'entry-point') return undefined;
      if (isBare(args.path) && !isWorkspace(args.path)) return { path: args.path, external: true };
      const result = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (result.errors.length > 0 || result.external) return result;
      const ours = !relative(repo, result.path).startsWith('..') && !result.path.includes(`${sep}node_modules${sep}`);
      return ours && result.path.split(sep).includes('src') ? { ...result, sideEffects: false } : result;
    });
  },
};

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
const started = Date.now();

// One build per entry, no splitting: with splitting, a dynamic import inside a module that tree
// shaking drops (@sess/db opens its drivers that way) still becomes a chunk of its own, and the
// package would import drizzle and postgres. So each file is whole: three self-contained bundles.
const metafiles = [];
for (const [name, source] of Object.entries(ENTRIES)) {
  const js = await esbuild.build({
    entryPoints: { [name]: source },
    // Metafile paths are relative to this directory.
    absWorkingDir: root,
    outdir: dist,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [resolveForPublishing],
    treeShaking: true,
    legalComments: 'none',
    sourcemap: false,
    metafile: true,
    logLevel: 'warning',
    banner: { js: `// ${PUBLISHED_NAME} ${pkg.version} (Apache-2.0). Bundled from the Sess repository; do not edit.` },
  });
  metafiles.push(js.metafile);
}

// --- what the output imports: builtins, and packages a bundled source declares ---------------------
const outputs = metafiles.flatMap((metafile) => Object.entries(metafile.outputs));
const imported = new Set(outputs.flatMap(([, output]) => output.imports.filter((i) => i.external).map((i) => i.path)));
const importedPackages = [...new Set([...imported].filter(isBare).map(packageOf))].sort();
const notBuiltin = [...imported].filter((id) => !isBare(id) && !builtins.has(id));
if (notBuiltin.length > 0)
  throw new Error(`the output imports what is neither a package nor a Node built-in: ${notBuiltin.join(', ')}`);
// Modules that put bytes into the output (esbuild parses more than it keeps).
const inputs = outputs.flatMap(([, output]) =>
  Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path),
);
const bundledWorkspaces = new Set(inputs.map((path) => workspaceOf(join(root, path))).filter(Boolean));
bundledWorkspaces.add(pkg.name);
const forbidden = importedPackages.filter((name) =>
  /^(?:drizzle-orm|postgres|@electric-sql\/pglite|hono|@hono\/.*|@sess\/.*)$/.test(name),
);
if (forbidden.length > 0) throw new Error(`the bundle imports server or workspace code: ${forbidden.join(', ')}`);

/**
 * The range the workspace declares for `name`: apps/stdio's own manifest first, then a bundled
 * package's. Two bundled packages declaring two ranges would leave one of them untested: refused.
 */
function declaredRange(name) {
  const declared = [pkg.name, ...[...bundledWorkspaces].sort()]
    .map((from) => ({ from, range: (from === pkg.name ? pkg : workspace.get(from)?.manifest)?.dependencies?.[name] }))
    .filter((d) => d.range !== undefined);
  const ranges = new Set(declared.map((d) => d.range));
  if (ranges.size > 1)
    throw new Error(`${name} is declared at different ranges: ${declared.map((d) => `${d.from} ${d.range}`).join(', ')}`);
  return declared[0];
}
const dependencies = {};
const undeclared = [];
const sources = [];
for (const name of importedPackages) {
  const declared = declaredRange(name);
  if (!declared) undeclared.push(name);
  else {
    if (declared.range === '*' || declared.range.startsWith('file:') || declared.range.startsWith('workspace:'))
      throw new Error(`${name} is declared as "${declared.range}" by ${declared.from}: not a registry range`);
    dependencies[name] = declared.range;
    sources.push(`${name}@${declared.range} (${declared.from})`);
  }
}
if (undeclared.length > 0)
  throw new Error(`the output imports what no bundled package.json lists in its dependencies: ${undeclared.join(', ')}`);

// --- declarations, in two steps (as packages/host-free/client's build) -----------------------------------
// rollup-plugin-dts cannot be given our .ts sources (it treats @sess/* as libraries and builds a
// TypeScript program per file, for minutes). So: (1) one run of the repository's TypeScript (v7,
// by its own bin: node_modules/.bin/tsc is the 6.x rollup-plugin-dts brings) emits a .d.ts per
// source file reached from the typed entries, @sess/* pointed at their sources so they are
// emitted, not read as libraries; (2) rollup-plugin-dts bundles each entry's .d.ts files, which it
// only parses, into one file per export.
const work = await mkdtemp(join(tmpdir(), 'sess-mcp-dts-'));
const emitted = join(work, 'out');
/** Every workspace export, `@sess/x` and `@sess/x/sub`, at its source. */
const workspacePaths = {};
for (const [name, { dir, manifest }] of workspace) {
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== 'string' || !target.endsWith('.ts')) continue;
    workspacePaths[subpath === '.' ? name : `${name}/${subpath.slice(2)}`] = [join(dir, target)];
  }
}
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
    types: ['node'],
    typeRoots: [join(repo, 'node_modules', '@types')],
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: repo,
    outDir: emitted,
    paths: workspacePaths,
  },
  files: TYPED.map((name) => ENTRIES[name]),
};
await writeFile(join(work, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
const typescriptManifest = require.resolve('typescript/package.json', { paths: [repo] });
const tscBin = join(dirname(typescriptManifest), JSON.parse(await readFile(typescriptManifest, 'utf8')).bin.tsc);
const tsc = spawnSync(process.execPath, [tscBin, '-p', join(work, 'tsconfig.json')], { encoding: 'utf8' });
if (tsc.status !== 0) {
  await rm(work, { recursive: true, force: true });
  throw new Error(`tsc could not emit the declarations:\n${tsc.stdout}${tsc.stderr}`);
}

/** An emitted file's path for a source file's path. */
const emittedPath = (source) => join(emitted, relative(repo, source)).replace(/\.ts$/, '.d.ts');
const workspaceDeclarations = new Map(Object.entries(workspacePaths).map(([name, [source]]) => [name, emittedPath(source)]));
// The emitted files keep the sources' specifiers ('./x.ts', '@sess/core'): point them at the
// emitted files, so rollup-plugin-dts finds every one in the one program it makes per entry.
const pointAtDeclarations = {
  name: 'point-at-declarations',
  resolveId(source, importer) {
    if (!importer) return null;
    const declaration = workspaceDeclarations.get(source);
    if (declaration) return declaration;
    if (source.startsWith('.') && source.endsWith('.ts') && !source.endsWith('.d.ts')) {
      return join(dirname(importer), source).replace(/\.ts$/, '.d.ts');
    }
    return null;
  },
};
/** What a declaration file may import: a listed dependency, or a Node built-in (a Node consumer has @types/node). */
const typeImportAllowed = (id) => builtins.has(id) || (isBare(id) && Object.hasOwn(dependencies, packageOf(id)));
const declarationSizes = {};
for (const name of TYPED) {
  const bundle = await rollup({
    input: emittedPath(ENTRIES[name]),
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !workspaceDeclarations.has(id),
    // 100 is ts.ModuleResolutionKind.Bundler: the program rollup-plugin-dts makes follows './x.ts'
    // specifiers to the emitted .d.ts files (Node10, its default, would not).
    plugins: [pointAtDeclarations, dts({ compilerOptions: { moduleResolution: 100 } })],
    onwarn(warning, warn) {
      // Type-only circular imports inside the contract are harmless in a declaration bundle.
      if (warning.code === 'CIRCULAR_DEPENDENCY') return;
      warn(warning);
    },
  });
  const { output } = await bundle.generate({ format: 'es' });
  await bundle.close();
  const chunk = output.find((c) => c.type === 'chunk');
  if (!chunk) throw new Error(`rollup-plugin-dts produced no declarations for ${name}`);
  if (/^\/\/\/\s*<reference/m.test(chunk.code))
    throw new Error(`dist/${name}.d.ts has a triple-slash reference (a consumer may lack it)`);
  const dtsImports = [...chunk.code.matchAll(/(?:from\s+|import\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
  const strayTypes = [...new Set(dtsImports.filter((id) => !typeImportAllowed(id)))];
  if (strayTypes.length > 0)
    throw new Error(`dist/${name}.d.ts imports what the package does not depend on: ${strayTypes.join(', ')}`);
  await writeFile(join(dist, `${name}.d.ts`), chunk.code);
  declarationSizes[name] = chunk.code.length;
}
await rm(work, { recursive: true, force: true });

// --- the published manifest and README -------------------------------------------------------
const readme = join(root, 'README.md');
if (!(await stat(readme).catch(() => undefined)))
  throw new Error('apps/stdio/README.md is missing: the package ships its README');
await copyFile(readme, join(dist, 'README.md'));
const binFile = `${BIN_NAME}.js`;
const binSource = await readFile(join(dist, binFile), 'utf8');
if (!binSource.startsWith('#!/usr/bin/env node\n')) throw new Error(`dist/${binFile} does not start with the shebang`);
await chmod(join(dist, binFile), 0o755);

const files = [
  ...new Set([...outputs.map(([path]) => relative(dist, join(root, path))), ...TYPED.map((n) => `${n}.d.ts`), 'README.md']),
].sort();
const published = {
  name: PUBLISHED_NAME,
  version: pkg.version,
  description: pkg.description,
  license: pkg.license,
  type: 'module',
  bin: { [BIN_NAME]: `./${binFile}` },
  exports: {
    '.': { types: './index.d.ts', import: './index.js' },
    './http': { types: './http.d.ts', import: './http.js' },
    './package.json': './package.json',
  },
  files,
  sideEffects: [`./${binFile}`],
  engines: { node: '>=20' },
  dependencies,
  // scripts/release.mjs publishes it: public (a scoped package is private by default), with provenance.
  publishConfig: { access: 'public', provenance: true },
};
await writeFile(join(dist, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);

const size = async (file) => (await stat(join(dist, file))).size;
const sizes = await Promise.all(files.filter((f) => f.endsWith('.js')).map(async (f) => `${f} ${await size(f)} B`));
process.stdout.write(
  `${PUBLISHED_NAME} ${pkg.version}: ${sizes.join(', ')}; ${TYPED.map((n) => `${n}.d.ts ${declarationSizes[n]} B`).join(', ')} ` +
    `(${inputs.length} modules bundled; depends on ${sources.join(', ')}; built-ins ${[...imported].filter((id) => builtins.has(id)).length}) ` +
    `in ${Date.now() - started} ms\n`,
);
