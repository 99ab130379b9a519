#!/usr/bin/env node
// The `sess` command of a development checkout: the TypeScript CLI through tsx's loader (a
// development dependency; no build step). A deployment runs the bundle: `node dist/sess.mjs`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
