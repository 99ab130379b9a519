import { busyAnswer, classifyRequest } from './admission.ts';

/** Bodies up to this size are read before the answer (see below); larger ones are left to the adapter. */
const SMALL_BODY_BYTES = 64 * 1024;

/**
 * What Sess answers between listening and having its database open and migrated (issue 33: an
 * embedded database replaying its WAL after a crash takes seconds). The process is alive, so
 * `/healthz` says 200 `starting`; it is not ready, so `/readyz` says 503 `starting`; every other
 * request is answered at once, not queued, as a refusal in its face's shape (503, `Retry-After`,
 * `reason: starting`): nothing was started, and the retries that come back find it ready rather
 * than a pile of requests waiting for the database.
 */
export async function answerWhileStarting(request: Request): Promise<Response> {
  const url = new URL(request.url);
  // A small body is read before answering, so nothing is left unread on the connection: a body
  // left to the adapter's drain, on a CPU-starved start, can see the connection reset under the answer.
  const length = Number(request.headers.get('content-length') ?? 0);
  if (request.body && length > 0 && length <= SMALL_BODY_BYTES) await request.arrayBuffer().catch(() => undefined);
  const headers = { 'Cache-Control': 'no-store' };
  if (url.pathname === '/healthz') return Response.json({ status: 'starting' }, { headers });
  if (url.pathname === '/readyz') return Response.json({ status: 'starting' }, { status: 503, headers });
  const admissionClass = classifyRequest(request.method, url.pathname, (name) => url.searchParams.get(name) ?? undefined);
  return busyAnswer(
    admissionClass ?? 'pages',
    url.pathname,
    request.headers.get('accept') ?? undefined,
    undefined,
    'starting',
    request,
  );
}
