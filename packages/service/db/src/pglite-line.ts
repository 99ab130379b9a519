import type { PGlite, Transaction } from '@electric-sql/pglite';
import { activeTracer } from '@sess/core';
import { gateKindOf, type PoolGate } from './pool-gate.ts';
import { traceStatement, traceTransaction } from './trace-statements.ts';

type Statement = (text: string, ...rest: unknown[]) => Promise<unknown>;

/**
 * The PGlite instance drizzle should get: its top-level queries and transactions first take
 * their turn at `gate` (one at a time: PGlite is one connection), so the line in front of the
 * embedded database is ours: each wait in it is bounded (a refusal is the same
 * `DatabaseWaitError` as at PostgreSQL's pool: 503, nothing sent), and it lets the event loop
 * read its sockets between operations (`yieldAfterMs`), where PGlite's own mutex queues without
 * bound and hands over in microtasks. Statements inside a
 * transaction run on the transaction PGlite hands out, past the gate. PGlite keeps its state in
 * private fields, so everything else is called on the instance itself. With tracing on, each
 * statement and transaction has its span, as on PostgreSQL (trace-statements.ts).
 */
export function pgliteBehindGate(pg: PGlite, gate: PoolGate): PGlite {
  return new Proxy(pg, {
    get(target, property) {
      if (property === 'query' || property === 'exec') {
        const method = target[property].bind(target) as Statement;
        return (text: string, ...rest: unknown[]) => {
          const tracer = activeTracer();
          if (!tracer) return gate.run(gateKindOf(text), () => method(text, ...rest));
          return traceStatement(tracer, text, () => gate.run(gateKindOf(text), () => method(text, ...rest)));
        };
      }
      if (property === 'transaction') {
        return (body: Parameters<PGlite['transaction']>[0]) => {
          const tracer = activeTracer();
          if (!tracer) return gate.run('write', () => target.transaction(body));
          return traceTransaction(tracer, 'transaction', () =>
            gate.run('write', () => target.transaction((tx) => body(tracedTransaction(tx)))),
          );
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A transaction whose statements have their spans (tracing on only). */
function tracedTransaction(tx: Transaction): Transaction {
  return new Proxy(tx, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== 'query' && property !== 'exec') return typeof value === 'function' ? value.bind(target) : value;
      const method = (value as Statement).bind(target);
      return (text: string, ...rest: unknown[]) => {
        const tracer = activeTracer();
        return tracer ? traceStatement(tracer, text, () => method(text, ...rest)) : method(text, ...rest);
      };
    },
  });
}
