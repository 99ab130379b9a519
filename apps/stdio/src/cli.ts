import { ConfigError, loadConfig } from './config/load-config.ts';
import type { StdioStreams } from './serve/run-server.ts';

/*
 * `sess-mcp`: with no argument, the stdio MCP server (stdout is the MCP channel, stderr carries
 * only fixed event lines); `sess-mcp doctor` checks the set-up; `sess-mcp --help` says how to use
 * it. Configuration comes from the environment only (README, "Configuration"): a bad value is one
 * line on stderr and exit 2. The tools never take an origin, key or workspace as arguments.
 */

/** Exit codes: 0 done, 1 doctor found a problem, 2 usage or configuration. */
export const EXIT = { ok: 0, problem: 1, usage: 2 } as const;

export const HELP = `sess-mcp — the Sess MCP server on your machine (stdio)

Usage:
  sess-mcp            serve the Sess tools over stdio (your MCP host starts this)
  sess-mcp doctor     check the set-up: origin, profile, state directory, key, API, records
  sess-mcp --help     this text

Environment (of the server process only; never in a chat or in tool arguments):
  SESS_API_KEY                 required; read on the first tool call
  SESS_API_ORIGIN              default https://api.sess.si (HTTPS, no path, query or credentials)
  SESS_MCP_PROFILE             profile name, default "default"
  SESS_MCP_STATE_DIR           absolute state directory
                               (default $XDG_STATE_HOME/sess-mcp, ~/.local/state/sess-mcp, %LOCALAPPDATA%\\sess-mcp)
  SESS_MCP_MAX_WAIT_MS         lower the 45000 ms wait ceiling
  SESS_RECEIPT_ISSUER          receipt issuer, if it differs from the API origin
  SESS_EXPECTED_WORKSPACE_ID   trusted workspace for a runtime without Sess-Workspace-Id

Records: <state dir>/profiles/<profile>/handles/<handle>.json (mode 0600; they can hold the
Sess link and answers). Blocked or unconfirmed ones: see the README's owner procedure.
`;

/**
 * Runs `sess-mcp` with `argv` (without node and the script), the environment and the standard
 * streams; resolves with the exit code (the server's when stdin closes).
 */
export async function main(argv: readonly string[], env: Record<string, string | undefined>, io: StdioStreams): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (rest.length > 0 || (command !== undefined && command !== 'doctor')) {
    // Never echo the arguments: a key pasted on the command line would land in the host's log.
    io.stderr.write(
      'sess-mcp: unknown arguments; the server takes none (configuration is in the environment). See sess-mcp --help.\n',
    );
    return EXIT.usage;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr.write(`sess-mcp: configuration error: ${error.message}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  // Loaded only now: `--help` and a configuration error answer without loading the MCP SDK and the tools.
  if (command === 'doctor') return (await import('./doctor/run-doctor.ts')).runDoctor({ config, env, out: io.stdout });
  return (await import('./serve/run-server.ts')).runServer(config, env, io);
}
