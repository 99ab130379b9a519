import { Writable } from 'node:stream';
import type { Logger } from '@sess/core';
import { pino } from 'pino';

/*
 * What this server writes to stderr: one line per event, `sess-mcp <event> k=v …`, with only
 * fixed event names, tool names, states and error codes. stdout is the MCP channel; stderr is
 * read by people and hosts' log panes, so a link, key, token or answer never goes there — not
 * even redacted: fields other than the few below are dropped, and a value is written only when it
 * is a bare token of the fixed vocabulary (letters, digits, `_`, `.`).
 * @see ../../../../docs/contract/sess-mcp-readme.md "Security and support boundary" (stderr diagnostics)
 */

/** The fields a line may carry; everything else a log call passes is dropped. */
const FIELDS = ['tool', 'outcome', 'code', 'reason', 'step', 'ms'] as const;
const TOKEN = /^[A-Za-z0-9_.]{1,64}$/;

/** A writable stream of lines for the process's stderr. */
export interface LineSink {
  write(line: string): unknown;
}

/** Writes one fixed event line (`sess-mcp <event> k=v`), keeping only vocabulary tokens. */
export function writeEvent(sink: LineSink, event: string, fields: Record<string, unknown> = {}): void {
  if (!TOKEN.test(event)) return;
  let line = `sess-mcp ${event}`;
  for (const name of FIELDS) {
    const value = fields[name];
    if (typeof value === 'number' && Number.isFinite(value)) line += ` ${name}=${value}`;
    else if (typeof value === 'string' && TOKEN.test(value)) line += ` ${name}=${value}`;
  }
  sink.write(`${line}\n`);
}

/**
 * A pino logger for the tools (`ToolDeps.logger`) whose only output is `writeEvent` lines: the
 * adapter's `mcp.tool` line becomes `sess-mcp mcp.tool tool=sess_request outcome=waiting ms=…`,
 * and an `err` it logs is reduced to nothing (its message could quote what Sess said).
 */
export function createStderrLogger(sink: LineSink): Logger {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (!line) continue;
        try {
          const record = JSON.parse(line) as Record<string, unknown>;
          if (typeof record.event === 'string') writeEvent(sink, record.event, record);
        } catch {
          // Not a line of ours: write nothing rather than something unknown.
        }
      }
      done();
    },
  });
  return pino({ level: 'info', base: null, timestamp: false }, destination);
}
