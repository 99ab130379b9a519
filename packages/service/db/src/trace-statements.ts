import type { Tracer, TraceSpanOptions } from '@sess/core';

/*
 * Database spans, one per statement and one per transaction (its statements are its children),
 * when tracing is on (core's `activeTracer`). A statement's span carries its text as sent — the
 * placeholders, never the parameters — and its first keyword as its name. A span starts before
 * the gate, so it includes the wait for a connection. Only inside a trace (a request, an
 * outbound send): the background polls and the migrations start none of their own.
 */

/** A statement's operation: its first keyword, upper case (SELECT, INSERT, WITH, …). */
export function statementOperation(text: string): string {
  const keyword = /^\s*([A-Za-z]+)/.exec(text)?.[1];
  return keyword ? keyword.toUpperCase() : 'SQL';
}

/** Runs one statement in its span. */
export function traceStatement<T>(tracer: Tracer, text: string, run: () => PromiseLike<T>): Promise<T> {
  const operation = statementOperation(text);
  const options: TraceSpanOptions = {
    kind: 'client',
    attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': text },
    requireParent: true,
  };
  return tracer.span(operation, options, run);
}

/** Runs a transaction (or a savepoint) in its span. */
export function traceTransaction<T>(tracer: Tracer, kind: 'transaction' | 'savepoint', run: () => PromiseLike<T>): Promise<T> {
  const attributes = { 'db.system.name': 'postgresql', 'db.operation.name': kind };
  return tracer.span(kind, { kind: 'client', attributes, requireParent: true }, run);
}
