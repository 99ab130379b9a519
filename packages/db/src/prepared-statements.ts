import type { Sql } from 'postgres';

/**
 * The postgres.js client drizzle should get: every query it sends becomes a named prepared
 * statement, cached per connection by its text.
 *
 * Why: drizzle calls `sql.unsafe(text, params, { prepare: false })` for every query that was
 * not given a name with `.prepare()` — `db.execute`, the query builder and the relational API
 * alike. For an unprepared query with parameters postgres.js first sends Parse + Describe and
 * waits for the parameter types, then sends Bind + Execute: two round trips (and two socket
 * writes) per query. Measured on /v1 session create at 50 clients, that second round trip was a
 * third of the server's CPU. Prepared, a query is one round trip after its first use on a
 * connection.
 *
 * The statement cache lives on each connection and is bounded in practice by the number of
 * distinct query texts the code can produce; connections are recycled by postgres.js's
 * `max_lifetime`. Transactions and savepoints hand drizzle a new client, so those are wrapped too.
 */
export function withPreparedStatements(client: Sql): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (text: string, params?: unknown[], options?: Record<string, unknown>) =>
          target.unsafe(text, params as never, { ...options, prepare: true });
      }
      if (property === 'begin' || property === 'savepoint') {
        const open = Reflect.get(target, property, receiver) as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => {
          const body = args.pop() as (inner: Sql) => unknown;
          return open.call(target, ...args, (inner: Sql) => body(withPreparedStatements(inner)));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}
