// Preloaded into a `sess serve` child with --expose-internals (async-hooks.test.ts): on SIGUSR2 it
// prints whether any async init hook is installed in the process. With SESS_TEST_HOOK_CONTROL=1 it
// first installs one itself, so the test can see that the check reports a hook when there is one.
const asyncHooks = require('internal/async_hooks');

if (process.env.SESS_TEST_HOOK_CONTROL === '1') {
  new (require('node:async_hooks').AsyncLocalStorage)().run(1, () => undefined);
}
process.on('SIGUSR2', () => process.stderr.write(`async init hooks: ${asyncHooks.initHooksExist()}\n`));
