#!/usr/bin/env node
// The `sess-mcp` command of a development checkout: the TypeScript CLI through tsx's loader (a
// development dependency; no build step). The published package runs its bundle instead.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
const code = await main(process.argv.slice(2), process.env, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
process.exitCode = code;
// The host closed stdin (or a command finished): leave even if an idle connection to Sess is
// still open. The timer does not itself keep the process alive.
setTimeout(() => process.exit(code), 1000).unref();
