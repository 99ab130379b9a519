/**
 * How long a sign-in for an unknown e-mail (the dummy check) takes next to one for a known
 * account with a wrong password: the two should be alike, so timing does not tell whether an
 * account exists. Moved here from a unit test (a duration is a measurement, not a test).
 *
 * Run: node --import tsx bench/accounts/password-dummy.ts [--rounds 20]
 */
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../packages/service/accounts/src/passwords/password-hash.ts';

const at = process.argv.indexOf('--rounds');
const rounds = at === -1 ? 20 : Number(process.argv[at + 1]);

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await run();
  return (performance.now() - started) / rounds;
}

const stored = await hashPassword('correct horse battery');
await verifyAgainstDummy('warm up');
const real = await time(() => verifyPassword('wrong password here', stored));
const dummy = await time(() => verifyAgainstDummy('wrong password here'));
console.log(
  `real check ${real.toFixed(1)} ms, dummy ${dummy.toFixed(1)} ms, ratio ${(dummy / real).toFixed(2)} (${rounds} rounds each)`,
);
