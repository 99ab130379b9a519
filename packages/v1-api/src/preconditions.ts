import { SessError } from '@sess/core';

/** `Idempotency-Key`, required on every /v1 write. @throws SessError `PRECONDITION_REQUIRED`. */
export function requireIdempotencyKey(headers: Headers): string {
  const key = headers.get('idempotency-key');
  if (key === null || key === '') {
    throw new SessError(
      'PRECONDITION_REQUIRED',
      'Every write needs an Idempotency-Key header (a fresh UUID per request; repeat it to retry safely).',
      { header: 'Idempotency-Key' },
    );
  }
  return key;
}

/**
 * `If-Match` on revision writes: the revision the caller acts on, as the ETag of a read gives
 * it (`"3"`; a bare `3` is accepted too).
 * @throws SessError `PRECONDITION_REQUIRED` (missing), `INVALID_ARGUMENTS` (not a revision).
 */
export function requireIfMatchRevision(headers: Headers): number {
  const value = headers.get('if-match');
  if (value === null || value === '') {
    throw new SessError('PRECONDITION_REQUIRED', 'Publish and complete need If-Match: "<revision>" (the ETag of your read).', {
      header: 'If-Match',
    });
  }
  const match = /^\s*(?:"(\d{1,9})"|(\d{1,9}))\s*$/.exec(value);
  const revision = Number(match?.[1] ?? match?.[2]);
  if (!match || !Number.isSafeInteger(revision) || revision < 1) {
    throw new SessError('INVALID_ARGUMENTS', 'If-Match must be a revision such as "3".', { header: 'If-Match' });
  }
  return revision;
}

/** The ETag of a session read: its current revision. */
export function revisionEtag(revision: number): string {
  return `"${revision}"`;
}

/** Refuses query parameters a route does not know (closed inputs, like the bodies). */
export function checkQuery(url: string, allowed: readonly string[]): URLSearchParams {
  const params = new URL(url).searchParams;
  for (const name of params.keys()) {
    if (!allowed.includes(name)) {
      throw new SessError('INVALID_ARGUMENTS', `Unknown query parameter ${name}. Allowed: ${allowed.join(', ') || 'none'}.`, {
        field: `/${name}`,
      });
    }
  }
  return params;
}

/** A whole-number query parameter, or undefined when absent. */
export function integerParam(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null) return undefined;
  if (!/^\d{1,9}$/.test(value)) {
    throw new SessError('INVALID_ARGUMENTS', `${name} must be a whole number.`, { field: `/${name}` });
  }
  return Number(value);
}
