/**
 * An opaque piece of work a handle store and a backend carry out together: what the backend
 * writes in it and what the store inserts with it commit together or not at all. Only the store
 * that made it, and a backend built for that store's database, can see inside (a PostgreSQL
 * store's unit is a transaction); to the core it is a token it passes along, nothing more.
 */
export interface UnitOfWork {
  readonly kind: 'unit-of-work';
}
