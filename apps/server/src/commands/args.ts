/** A command line refused before anything runs: printed as one usage line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Splits a subcommand's arguments into `--name value` / `--name=value` options, bare `--flag`s
 * and positionals. Only the names in `valued` take a value; any other `--name` is a flag, and
 * one that is in neither list is refused (a typo must not be silently ignored).
 */
export function parseArgs(
  args: readonly string[],
  spec: { valued?: readonly string[]; flags?: readonly string[] },
): { options: Map<string, string>; flags: Set<string>; positionals: string[] } {
  const valued = new Set(spec.valued ?? []);
  const known = new Set(spec.flags ?? []);
  const options = new Map<string, string>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq > 0 ? eq : undefined);
    if (valued.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
    } else if (known.has(name) && eq < 0) {
      flags.add(name);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { options, flags, positionals };
}

/** The standard streams and environment a command runs with (a test passes its own). */
export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

/** This process's own streams and environment. */
export function processIo(): CommandIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/**
 * Runs a command that returns its exit code, and exits with it: an idle keep-alive socket or a
 * timer left behind must not hold the terminal. (stdout and stderr are synchronous on files and
 * pipes, so nothing written is lost.)
 */
export async function exitWith(run: Promise<number>): Promise<void> {
  process.exit(await run);
}
