import type { PGlite } from '@electric-sql/pglite';
import { gateKindOf, type PoolGate } from './pool-gate.ts';

/**
 * The PGlite instance drizzle should get: its top-level queries and transactions first take
 * their turn at `gate` (one at a time: PGlite is one connection), so the line in front of the
 * embedded database is ours: each wait in it is bounded (a refusal is the same
 * `DatabaseWaitError` as at PostgreSQL's pool: 503, nothing sent), and it lets the event loop
 * read its sockets between operations (`yieldAfterMs`), where PGlite's own mutex queues without
 * bound and hands over in microtasks. Statements inside a
 * transaction run on the transaction PGlite hands out, past the gate. PGlite keeps its state in
 * private fields, so everything else is called on the instance itself.
 */
export function pgliteBehindGate(pg: PGlite, gate: PoolGate): PGlite {
  return new Proxy(pg, {
    get(target, property) {
      if (property === 'query' || property === 'exec') {
        const method = target[property].bind(target) as (text: string, ...rest: unknown[]) => Promise<unknown>;
        return (text: string, ...rest: unknown[]) => gate.run(gateKindOf(text), () => method(text, ...rest));
      }
      if (property === 'transaction') {
        return (body: Parameters<PGlite['transaction']>[0]) => gate.run('write', () => target.transaction(body));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
