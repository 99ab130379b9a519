/**
 * The load generator of bench/oauth/run.ts, in its own process (like wrk on another core): it
 * receives prepared codes over IPC, posts them to the token endpoint with CONCURRENCY requests
 * in flight over keep-alive connections, and reports the rate. Not run by itself.
 */
import http from 'node:http';

interface Job {
  tokenEndpoint: string;
  resource: string;
  concurrency: number;
  items: Array<{ clientId: string; code: string; verifier: string }>;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(url: URL, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

process.once('message', async (job: Job) => {
  const url = new URL(job.tokenEndpoint);
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < job.items.length) {
        const item = job.items[next++]!;
        const body = new URLSearchParams({
          grant_type: 'authorization_code',
          code: item.code,
          code_verifier: item.verifier,
          redirect_uri: 'http://127.0.0.1:9/cb',
          client_id: item.clientId,
          resource: job.resource,
        }).toString();
        if ((await post(url, body)) !== 200) failed++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  process.send?.({ seconds, failed });
  agent.destroy();
  process.disconnect?.();
});
