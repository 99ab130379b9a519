import { runDoctor } from './run-doctor.ts';
import { runSetup } from './run-setup.ts';

/*
 * `openclaw sess setup [--yes]` and `openclaw sess doctor`, registered on OpenClaw's commander
 * program (`api.registerCli`). The commands are thin: what they do is run-setup.ts and
 * run-doctor.ts, which take their environment, state directory, OpenClaw's configuration and
 * output as arguments. OpenClaw 2026.9.6 runs a plugin command with `registrationMode`
 * "discovery", hands the registrar its whole configuration (`ctx.config`) and offers
 * `api.runtime.config.mutateConfigFile` for writes; a disabled plugin has no command at all.
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

/** OpenClaw's configuration as the commands read and change it (only `plugins`). */
export interface OpenclawConfigDraft {
  plugins?: {
    allow?: unknown;
    entries?: Record<string, { enabled?: boolean; [key: string]: unknown } | undefined>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

export interface SessCliOptions {
  env: Record<string, string | undefined>;
  openclawStateDir: () => string;
  pluginVersion: string;
  openclawVersion: () => string | undefined;
  /** OpenClaw's configuration as loaded for this command (the registrar's `ctx.config`). */
  openclawConfig?: () => OpenclawConfigDraft | undefined;
  /** A transactional write of OpenClaw's configuration (`api.runtime.config.mutateConfigFile`). */
  updateOpenclawConfig?: (mutate: (draft: OpenclawConfigDraft) => void) => Promise<void>;
  out?: { write(text: string): unknown };
}

/** The members of OpenClaw's plugin API that `registerSessCli` uses. */
export interface OpenclawCliApi {
  registrationMode?: string;
  registerCli?(
    registrar: (ctx: { program: CliCommand; config?: unknown }) => void | Promise<void>,
    options?: { descriptors?: ReadonlyArray<typeof SESS_CLI_DESCRIPTOR> },
  ): void;
  runtime?: {
    version?: string;
    config?: {
      mutateConfigFile?(params: { afterWrite?: { mode: 'auto' }; mutate(draft: OpenclawConfigDraft): void }): Promise<unknown>;
    };
  };
}

/** Reads a runtime member that may throw in a registration mode without a runtime. */
function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * Registers `openclaw sess …` through `api.registerCli` with the root descriptor (the manifest's
 * `cliCommands` row), wiring OpenClaw's configuration in: doctor reads it, setup writes it.
 */
export function registerSessCli(
  api: OpenclawCliApi,
  options: Pick<SessCliOptions, 'env' | 'openclawStateDir' | 'pluginVersion' | 'out'>,
): void {
  if (!api.registerCli) return;
  api.registerCli(
    ({ program, config }) => {
      const mutateConfigFile = safely(() => api.runtime?.config?.mutateConfigFile);
      registerSessCommands(program, {
        ...options,
        openclawVersion: () => safely(() => api.runtime?.version),
        openclawConfig: () => (config && typeof config === 'object' ? (config as OpenclawConfigDraft) : undefined),
        updateOpenclawConfig: mutateConfigFile
          ? async (mutate) => {
              await mutateConfigFile.call(api.runtime!.config, { afterWrite: { mode: 'auto' }, mutate });
            }
          : undefined,
      });
    },
    { descriptors: [SESS_CLI_DESCRIPTOR] },
  );
}

/** Adds `sess setup` and `sess doctor` to `program`; each sets `process.exitCode`. */
export function registerSessCommands(program: CliCommand, options: SessCliOptions): void {
  const out = options.out ?? process.stdout;
  const sess = program.command('sess').description(SESS_CLI_DESCRIPTOR.description);
  sess
    .command('setup')
    .description('Enable the plugin, make its state directory, check the environment file, and say what to do next')
    .option('--yes', 'also change what needs changing outside OpenClaw (the environment file mode) without asking')
    .action(async (...args: unknown[]) => {
      const flags = (args.find((a) => a && typeof a === 'object' && !Array.isArray(a)) ?? {}) as { yes?: boolean };
      process.exitCode = await runSetup({
        env: options.env,
        openclawStateDir: options.openclawStateDir(),
        yes: flags.yes === true,
        openclawConfig: options.openclawConfig?.(),
        updateOpenclawConfig: options.updateOpenclawConfig,
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
        openclawConfig: options.openclawConfig?.(),
        out,
      });
    });
}
