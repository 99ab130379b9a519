#!/usr/bin/env node
// The `sess-mcp` command as published (@sess.si/mcp): the build bundles this file, with the CLI
// it imports, into dist/sess-mcp.js. The checkout's bin/sess-mcp.mjs runs the same main through tsx.
import { main } from '../src/cli.ts';

process.exitCode = await main(process.argv.slice(2), process.env, {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
