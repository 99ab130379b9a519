import { activeTracer, markDatabaseError, type Tracer } from '@sess/core';
import type { Sql } from 'postgres';
import { gateKindOf, type PoolGate } from './pool-gate.ts';
import { traceStatement, traceTransaction } from './trace-statements.ts';

/**
 * The postgres.js client drizzle should get: every query it sends becomes a named prepared
 * statement, cached per connection by its text; with a `gate`, every top-level statement and
 * transaction first waits (boundedly) for its turn at the pool (see `createPoolGate`), a SELECT
 * as a read and anything else, a transaction included, as a write.
 *
 * Why prepared: drizzle calls `sql.unsafe(text, params, { prepare: false })` for every query that
 * was not given a name with `.prepare()` — `db.execute`, the query builder and the relational API
 * alike. For an unprepared query with parameters postgres.js first sends Parse + Describe and
 * waits for the parameter types, then sends Bind + Execute: two round trips (and two socket
 * writes) per query. Measured on /v1 session create at 50 clients, that second round trip was a
 * third of the server's CPU. Prepared, a query is one round trip after its first use on a
 * connection.
 *
 * The statement cache lives on each connection and is bounded in practice by the number of
 * distinct query texts the code can produce; connections are recycled by postgres.js's
 * `max_lifetime`. Transactions and savepoints hand drizzle a new client, so those are wrapped too
 * (without the gate: their statements run on the connection the transaction already holds).
 */
export function withPreparedStatements(client: Sql, gate?: PoolGate): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (text: string, params?: unknown[], options?: Record<string, unknown>) => {
          const query = target.unsafe(text, params as never, { ...options, prepare: true });
          const tracer = activeTracer();
          return gate || tracer ? deferredQuery(query, text, gate, tracer) : query;
        };
      }
      if (property === 'begin' || property === 'savepoint') {
        const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const body = args.pop() as (inner: Sql) => unknown;
          const run = () =>
            open
              .call(target, ...args, (inner: Sql) => body(withPreparedStatements(inner)))
              .catch((error: unknown) => {
                // postgres.js rejects a BEGIN that found no connection with the bare socket error.
                if (isSystemError(error)) markDatabaseError(error);
                throw error;
              });
          const gated = gate && property === 'begin' ? gate : undefined;
          const tracer = activeTracer();
          if (!tracer) return gated ? gated.run('write', run) : run();
          const kind = property === 'begin' ? 'transaction' : 'savepoint';
          return traceTransaction(tracer, kind, () => (gated ? gated.run('write', run) : run()));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

function isSystemError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  return typeof syscall === 'string' || (typeof code === 'string' && /^E[A-Z]{2,}$/.test(code));
}

/** Sends a lazy query: after its turn at the gate, when there is one. */
function send(query: PromiseLike<unknown>, text: string, gate: PoolGate | undefined): Promise<unknown> {
  return gate ? gate.run(gateKindOf(text), () => query) : Promise.resolve(query);
}

/**
 * A postgres.js query is lazy: nothing is sent until it is awaited. This wrapper sends it when it
 * is first awaited — once the gate admits it, in its span when tracing is on — and keeps
 * `.values()` (drizzle's array mode) working.
 */
function deferredQuery<Q extends { values(): unknown }>(query: Q, text: string, gate?: PoolGate, tracer?: Tracer): Q {
  let running: Promise<unknown> | undefined;
  const sent = query as unknown as PromiseLike<unknown>;
  const run = () => (running ??= tracer ? traceStatement(tracer, text, () => send(sent, text, gate)) : send(sent, text, gate));
  const wrapper: Q = new Proxy(query, {
    get(target, property, receiver) {
      switch (property) {
        case 'values':
          return () => {
            target.values();
            return wrapper;
          };
        case 'then':
          return (onFulfilled?: (value: unknown) => unknown, onRejected?: (reason: unknown) => unknown) =>
            run().then(onFulfilled, onRejected);
        case 'catch':
          return (onRejected?: (reason: unknown) => unknown) => run().catch(onRejected);
        case 'finally':
          return (onFinally?: () => void) => run().finally(onFinally);
        default:
          return Reflect.get(target, property, receiver);
      }
    },
  });
  return wrapper;
}
