import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childLogLevel, createChildOutputSplitter } from '@sess/testkit';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
/** The checkout's `sess` bin (what `npx sess` runs): dist/sess.mjs, built first when stale. Pass it as `bundle`. */
export const LAUNCHER = fileURLToPath(new URL('../../bin/sess.mjs', import.meta.url));

/** A running `sess` child process (the real CLI from the sources, through tsx). */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  /** What it printed so far (stdout without log lines, which go to the log audit). */
  stdout(): string;
  stderr(): string;
  /** Resolves once `pattern` appears on stdout or stderr (rejects if the process ends first or after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Its exit code (or the signal's name) and all it printed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/**
 * Starts `sess <args>` with only PATH and the given environment (LOG_LEVEL warn unless the log
 * audit is on); `nodeArgs` go to node before the CLI. With `openFiles`, under that open-file
 * limit (`ulimit -n` in a shell that then becomes node). With `bundle`, that bundled CLI (a
 * dist/sess.mjs, this checkout's or another release's) instead of the sources through tsx, in `cwd`.
 */
export function startCli(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
  nodeArgs: string[] = [],
  options: { openFiles?: number; bundle?: string; cwd?: string } = {},
): CliProcess {
  const entry = options.bundle ? [options.bundle] : ['--import', 'tsx', CLI];
  const command = [process.execPath, ...nodeArgs, ...entry, ...args];
  const [file, ...argv] =
    options.openFiles === undefined ? command : ['/bin/sh', '-c', `ulimit -n ${options.openFiles} && exec "$0" "$@"`, ...command];
  const child = spawn(file!, argv, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: childLogLevel('warn'), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (stdin !== undefined) child.stdin.end(stdin);
  const logs = createChildOutputSplitter();
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const watch of [...watchers]) watch();
  };
  child.stdout.on('data', (d) => {
    stdout += logs.write(d);
    changed();
  });
  child.stdout.on('end', () => (stdout += logs.end()));
  child.stderr.on('data', (d) => {
    stderr += d;
    changed();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => {
      changed();
      resolve({ code, signal, stdout, stderr });
    }),
  );
  let ended = false;
  void exited.then(() => {
    ended = true;
    changed();
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`timed out waiting for ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`));
        }, timeoutMs);
        function check() {
          const match = stdout.match(pattern) ?? stderr.match(pattern);
          if (match || ended) {
            watchers.delete(check);
            clearTimeout(timer);
            if (match) resolve(match);
            else reject(new Error(`the process ended before ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`));
          }
        }
        watchers.add(check);
        check();
      });
    },
  };
}

/** Runs `sess <args>` to the end (with `openFiles`, under that open-file limit; `bundle`, `cwd` as in startCli). */
export function runCli(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
  options: { openFiles?: number; bundle?: string; cwd?: string } = {},
) {
  return startCli(args, env, stdin ?? '', [], options).exited;
}
