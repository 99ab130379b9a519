#!/usr/bin/env node
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
// Builds the publishable @sess/client into dist/: one ESM file (esbuild) and one .d.ts
// (rollup + rollup-plugin-dts). The workspace packages it uses (@sess/contract, surface,
// receipts, core) are bundled into both, so the published package depends only on what its
// package.json lists. The build fails if the output imports anything else.
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { dts } from 'rollup-plugin-dts';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const repo = dirname(dirname(root));
const dist = join(root, 'dist');
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

// Declarations: our workspace packages are inlined, every other package stays an import (and
// is then checked against the dependencies below). tsconfig.build.json names only the entry: the
// repository's tsconfig would pull every package of the repository into the program.
const bundle = await rollup({
  input: join(root, 'src/index.ts'),
  external: (id) => !id.startsWith('@sess/') && !id.startsWith('.') && !id.startsWith('/'),
  plugins: [
    dts({
      respectExternal: true,
      tsconfig: join(root, 'tsconfig.build.json'),
      compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true },
    }),
  ],
  onwarn(warning, warn) {
    // Type-only circular imports inside the contract are harmless in a declaration bundle.
    if (warning.code === 'CIRCULAR_DEPENDENCY') return;
    warn(warning);
  },
});
const { output } = await bundle.generate({ format: 'es' });
await bundle.close();
const declarations = output.find((chunk) => chunk.type === 'chunk');
if (!declarations) throw new Error('rollup-plugin-dts produced no declaration chunk');
const dtsImports = [...declarations.code.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
const strayTypes = dtsImports.filter((id) => !isDependency(id));
if (strayTypes.length > 0) throw new Error(`dist/index.d.ts imports what package.json does not list: ${strayTypes.join(', ')}`);
await writeFile(join(dist, 'index.d.ts'), declarations.code);

const size = async (file) => (await stat(join(dist, file))).size;
process.stdout.write(
  `@sess/client ${pkg.version}: dist/index.js ${await size('index.js')} B, dist/index.d.ts ${await size('index.d.ts')} B ` +
    `(${inputs.length} modules bundled; imports ${[...imported].sort().join(', ')}) in ${Date.now() - started} ms\n`,
);
