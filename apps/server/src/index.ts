export { type AppDeps, buildApp, type SessApp } from './app.ts';
export { type Config, ConfigError, loadConfig } from './config.ts';
export { type RunningServer, type StartOptions, startServer } from './server.ts';
export { startTracing, type Tracing } from './tracing/start-tracing.ts';
