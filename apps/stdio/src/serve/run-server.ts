import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { createFileHandleStore } from '@sess/file-store';
import { createHttpBackend, createHttpReceipts, type ToolDeps } from '@sess/interactions';
import { createServerFactory } from '@sess/mcp';
import type { StdioConfig } from '../config/load-config.ts';
import { createStderrLogger, writeEvent } from './stderr-log.ts';
import { createStdioScope } from './stdio-scope.ts';
import { pauseAfterStep } from './test-pause.ts';

/** The process's standard streams (the bin passes `process.std*`; a test may pass its own). */
export interface StdioStreams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** The `User-Agent` product token in front of the client's own. */
const USER_AGENT = 'sess-mcp';

/**
 * Serves the Sess tools over stdio until the host closes stdin: the same tools, descriptions,
 * results and errors as the hosted `/mcp` (one adapter, `createServerFactory`), over the HTTP
 * backend with the owner's API key and the file handle store of the configured profile.
 * Resolves with the exit code when the connection ends.
 */
export function runServer(config: StdioConfig, env: Record<string, string | undefined>, io: StdioStreams): Promise<number> {
  const sink = { write: (line: string) => io.stderr.write(line) };
  const fileStore = createFileHandleStore({ stateDir: config.stateDir, profile: config.profile });
  const deps: ToolDeps = {
    // No key here: each call's principal carries it (read on the first tool call).
    backend: createHttpBackend({
      origin: config.origin,
      expectedWorkspaceId: config.expectedWorkspaceId,
      userAgent: USER_AGENT,
    }),
    receipts: createHttpReceipts({ origin: config.origin, issuer: config.receiptIssuer }),
    now: () => new Date(),
    logger: createStderrLogger(sink),
    maxWaitMs: config.maxWaitMs,
  };
  const pauseAt = config.pauseAt;
  const scope = createStdioScope({
    config,
    env,
    fileStore,
    ...(pauseAt ? { wrapStore: (store) => pauseAfterStep(store, pauseAt, sink) } : {}),
  });
  const factory = createServerFactory(deps, scope);

  return new Promise((resolve) => {
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      writeEvent(sink, 'stdio.closed');
      resolve(0);
    };
    // serveStdio owns the transport (its close callback too): the connection ends with stdin.
    io.stdin.once('end', end);
    io.stdin.once('close', end);
    const transport = new StdioServerTransport(io.stdin, io.stdout);
    serveStdio(factory, { transport, onerror: () => writeEvent(sink, 'stdio.error') });
    writeEvent(sink, 'stdio.started');
  });
}
