import { SessClientError } from '../errors/sess-client-error.ts';

/** A session or Ask id as a path segment; an empty or non-string id is refused before sending. */
export function pathId(operation: string, name: string, id: unknown): string {
  if (typeof id !== 'string' || id === '' || id.length > 200) {
    throw new SessClientError({ kind: 'configuration', operation, message: `${name} must be a non-empty id string.` });
  }
  return encodeURIComponent(id);
}

/** A revision as `If-Match` and `?revision=` take it: a whole number from 1. */
export function checkRevision(operation: string, name: string, revision: unknown): number {
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 1) {
    throw new SessClientError({ kind: 'configuration', operation, message: `${name} must be a whole number from 1.` });
  }
  return revision;
}
