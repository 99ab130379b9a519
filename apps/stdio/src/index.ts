export { EXIT, HELP, main } from './cli.ts';
export { ConfigError, DEFAULT_API_ORIGIN, loadConfig, type StdioConfig, WAIT_CEILING_MS } from './config/load-config.ts';
export { runDoctor } from './doctor/run-doctor.ts';
export { runServer, type StdioStreams } from './serve/run-server.ts';
