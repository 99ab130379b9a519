#!/usr/bin/env node
// Builds the publishable OpenClaw plugin into dist/, which is the package as published under the
// seed's name, @sess.si/openclaw (`npm pack ./dist`, `npm publish ./dist`); in the workspace the
// package is its source (@sess/openclaw, package.json exports src/*.ts), like apps/stdio.
//
//   dist/index.js              the plugin entry (src/plugin-entry.ts's default export), one ESM bundle
//   dist/openclaw.plugin.json  the manifest (copied; its version set to the package's)
//   dist/package.json          generated: openclaw.extensions ["./index.js"], the runtime dependencies only
//   dist/README.md
//
// Our workspace packages (@sess/*) are bundled. Every other package stays an import, and the
// published manifest lists exactly the packages the output imports, each at the range the
// workspace declares for it. The build fails if the output imports a package no bundled source
// declares, or server code (drizzle, postgres, PGlite, hono). `openclaw` (the entry's
// defineToolPlugin) is a peer dependency: OpenClaw links its own copy for an installed plugin.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

/** The seed's package name; the workspace calls the package @sess/openclaw. */
const PUBLISHED_NAME = '@sess.si/openclaw';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(dirname(root));
// `--out <dir>` builds elsewhere (a test builds into its own directory).
const outFlag = process.argv.indexOf('--out');
if (outFlag !== -1 && !process.argv[outFlag + 1]) throw new Error('--out needs a directory');
const dist = outFlag === -1 ? join(root, 'dist') : resolve(process.argv[outFlag + 1]);
// The output directory is emptied first: never the package, the repository or one holding them.
if (!relative(dist, root).startsWith('..') || !relative(dist, repo).startsWith('..'))
  throw new Error(`refusing to build into ${dist}: it holds the sources`);
const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

const packageOf = (id) =>
  id
    .split('/')
    .slice(0, id.startsWith('@') ? 2 : 1)
    .join('/');
const isBare = (id) => !id.startsWith('.') && !id.startsWith('/') && !builtins.has(id) && !id.startsWith('node:');

/** name → { dir, manifest } for every workspace package. */
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
function workspaceOf(file) {
  for (const [name, { dir }] of workspace) if (file.startsWith(`${dir}${sep}`)) return name;
  return undefined;
}

/** Workspace sources have no import-time side effects; every bare import not ours stays external. */
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
const js = await esbuild.build({
  entryPoints: { index: join(root, 'src', 'plugin-entry.ts') },
  absWorkingDir: root,
  outdir: dist,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  plugins: [resolveForPublishing],
  treeShaking: true,
  legalComments: 'none',
  sourcemap: false,
  metafile: true,
  logLevel: 'warning',
  banner: { js: `// ${PUBLISHED_NAME} ${pkg.version} (Apache-2.0). Bundled from the Sess repository; do not edit.` },
});

const outputs = Object.entries(js.metafile.outputs);
const imported = new Set(outputs.flatMap(([, output]) => output.imports.filter((i) => i.external).map((i) => i.path)));
const importedPackages = [...new Set([...imported].filter(isBare).map(packageOf))].sort();
const notBuiltin = [...imported].filter((id) => !isBare(id) && !builtins.has(id));
if (notBuiltin.length > 0)
  throw new Error(`the output imports what is neither a package nor a built-in: ${notBuiltin.join(', ')}`);
const forbidden = importedPackages.filter((name) =>
  /^(?:drizzle-orm|postgres|@electric-sql\/pglite|hono|@hono\/.*|@sess\/.*)$/.test(name),
);
if (forbidden.length > 0) throw new Error(`the bundle imports server or workspace code: ${forbidden.join(', ')}`);
const inputs = outputs.flatMap(([, output]) =>
  Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path),
);
const bundledWorkspaces = new Set(inputs.map((path) => workspaceOf(join(root, path))).filter(Boolean));
bundledWorkspaces.add(pkg.name);

/** The range the workspace declares for `name`: this package's manifest first, then a bundled package's. */
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
/** The host: a peer dependency, never installed with the plugin. */
const PEER = 'openclaw';
for (const name of importedPackages) {
  if (name === PEER) continue;
  const declared = declaredRange(name);
  if (!declared) throw new Error(`the output imports ${name}, which no bundled package.json lists in its dependencies`);
  if (declared.range === '*' || declared.range.startsWith('file:') || declared.range.startsWith('workspace:'))
    throw new Error(`${name} is declared as "${declared.range}" by ${declared.from}: not a registry range`);
  dependencies[name] = declared.range;
}

const manifest = JSON.parse(await readFile(join(root, 'openclaw.plugin.json'), 'utf8'));
manifest.version = pkg.version;
await writeFile(join(dist, 'openclaw.plugin.json'), `${JSON.stringify(manifest, null, 2)}\n`);
await copyFile(join(root, 'README.md'), join(dist, 'README.md'));
const published = {
  name: PUBLISHED_NAME,
  version: pkg.version,
  description: pkg.description.replace(/ \(published as [^)]*\)/, ''),
  type: 'module',
  license: pkg.license,
  main: './index.js',
  exports: { '.': './index.js' },
  files: ['index.js', 'openclaw.plugin.json', 'README.md'],
  engines: { node: '>=22' },
  dependencies,
  peerDependencies: { openclaw: '>=2026.9.6' },
  openclaw: { extensions: ['./index.js'] },
  // scripts/release.mjs publishes it: public (a scoped package is private by default), with provenance.
  publishConfig: { access: 'public', provenance: true },
};
await writeFile(join(dist, 'package.json'), `${JSON.stringify(published, null, 2)}\n`);
const size = (await readFile(join(dist, 'index.js'))).length;
process.stdout.write(
  `built ${PUBLISHED_NAME}@${pkg.version} into ${relative(process.cwd(), dist) || '.'} in ${Date.now() - started} ms: index.js ${Math.round(size / 1024)} KiB; dependencies ${Object.entries(
    dependencies,
  )
    .map(([n, r]) => `${n}@${r}`)
    .join(', ')}\n`,
);
