/*
 * The README's examples type-check against this package's own types, as a user's editor would
 * check them (`// @ts-check`, strict null checks): a quick start that passes a response that may
 * be null, or returns at the top level of a module, fails here. The examples run as written
 * except for the functions they leave to the reader (showToThePerson, retryLater, reread),
 * declared loosely. Blocks that import a file beside them (`./own-agent.mjs`) are the example
 * file's, which the packed-consumer test runs.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../', import.meta.url));
const ROOT = join(PACKAGE, '../../../');
const README = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
const examples = [...README.matchAll(/^```js\n([\s\S]*?)^```/gm)]
  .map((match) => match[1]!)
  .filter((code) => !/from '\.\.?\//.test(code));

const dir = mkdtempSync(join(tmpdir(), 'sess-client-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const READER_PARTS = `declare function showToThePerson(url: string): void;
declare function retryLater(options: unknown): unknown;
declare function reread(revision: unknown): unknown;
`;

/** tsc over the package's sources takes seconds, more on a loaded machine. */
const TSC = { timeout: 120_000 };

it('type-checks every example of the README against @sess/client (strict null checks, no top-level return)', TSC, () => {
  expect(examples.length).toBeGreaterThanOrEqual(2);
  const files = examples.map((code, index) => {
    const name = `example-${index + 1}.mjs`;
    writeFileSync(join(dir, name), `// @ts-check\n${code}`);
    return name;
  });
  writeFileSync(join(dir, 'reader.d.ts'), READER_PARTS);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        // A reader's untyped parameters are theirs to type; everything the client returns is checked.
        noImplicitAny: false,
        allowJs: true,
        checkJs: true,
        noEmit: true,
        skipLibCheck: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        allowImportingTsExtensions: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        paths: { '@sess/client': [join(PACKAGE, 'src/index.ts')] },
      },
      files: [...files, 'reader.d.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {
    encoding: 'utf8',
  });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
});

it('would catch a quick start that returns at the top level or uses a response that may be null', TSC, () => {
  const broken = `import { createSessClient } from '@sess/client';
const sess = createSessClient({ origin: 'https://sess.example', apiKey: 'k' });
const read = await sess.sessions.wait('ses_1', { waitMs: 1000 });
if (read.data.state !== 'answered') return;
await sess.receipts.verifyResponse({ response: read.data.response, sessionId: 'ses_1', revision: 1, eventId: 'e',
  surfaceSha256: 's', workspaceId: 'w' });
`;
  writeFileSync(join(dir, 'broken.mjs'), `// @ts-check\n${broken}`);
  writeFileSync(
    join(dir, 'tsconfig.broken.json'),
    JSON.stringify({ extends: './tsconfig.json', files: ['broken.mjs', 'reader.d.ts'] }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.broken.json')],
    {
      encoding: 'utf8',
    },
  );
  const out = tsc.stdout + tsc.stderr;
  expect(out).toMatch(/'return' statement can only be used within a function body|TS1108/);
  expect(out).toMatch(/null/);
  expect(tsc.status).not.toBe(0);
});
