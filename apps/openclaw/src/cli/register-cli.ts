import { runDoctor } from './run-doctor.ts';
import { runSetup } from './run-setup.ts';

/*
 * `openclaw sess setup [--yes]` and `openclaw sess doctor`, registered on OpenClaw's commander
 * program (`api.registerCli`). The commands are thin: what they do is run-setup.ts and
 * run-doctor.ts, which take their environment, state directory and output as arguments.
 */

/** The commander members the commands use (OpenClaw hands its `program`). */
export interface CliCommand {
  command(name: string): CliCommand;
  description(text: string): CliCommand;
  option(flags: string, description: string): CliCommand;
  action(handler: (...args: unknown[]) => unknown): CliCommand;
}

/** The root command's descriptor: OpenClaw lists it in `openclaw --help` before the plugin loads. */
export const SESS_CLI_DESCRIPTOR = {
  name: 'sess',
  description: 'Sess: set up the plugin and check it (no network)',
  hasSubcommands: true,
} as const;

export interface SessCliOptions {
  env: Record<string, string | undefined>;
  openclawStateDir: () => string;
  pluginVersion: string;
  openclawVersion: () => string | undefined;
  out?: { write(text: string): unknown };
}

/** Adds `sess setup` and `sess doctor` to `program`; each sets `process.exitCode`. */
export function registerSessCommands(program: CliCommand, options: SessCliOptions): void {
  const out = options.out ?? process.stdout;
  const sess = program.command('sess').description(SESS_CLI_DESCRIPTOR.description);
  sess
    .command('setup')
    .description('Make the state directory, check the environment file, and say what to do next')
    .option('--yes', 'change what needs changing (the environment file mode) without asking')
    .action(async (...args: unknown[]) => {
      const flags = (args.find((a) => a && typeof a === 'object' && !Array.isArray(a)) ?? {}) as { yes?: boolean };
      process.exitCode = await runSetup({
        env: options.env,
        openclawStateDir: options.openclawStateDir(),
        yes: flags.yes === true,
        out,
      });
    });
  sess
    .command('doctor')
    .description('Show the set-up without contacting Sess or printing the key')
    .action(async () => {
      process.exitCode = await runDoctor({
        env: options.env,
        openclawStateDir: options.openclawStateDir(),
        pluginVersion: options.pluginVersion,
        openclawVersion: options.openclawVersion(),
        out,
      });
    });
}
