/**
 * The push service of bench/notify in a process of its own (started by run.ts, pinned to core 1
 * beside the clients but not on their event loop: decrypting every push and checking its VAPID
 * token would otherwise delay the clients' reading of the responses they time). It runs
 * @sess/testkit's RFC 8030 push service and answers run.ts on a control port:
 * `POST /subscribe` (body: the VAPID public key) and `GET /received/<id>` (each push's link and
 * arrival time, ms since the epoch).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPushService } from '@sess/testkit/push-service';

const push = await startPushService();
const control = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const send = (value: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  if (req.method === 'POST' && req.url === '/subscribe') return send(push.subscribe(Buffer.concat(chunks).toString('utf8')));
  const received = /^\/received\/([\w-]+)$/.exec(req.url ?? '');
  if (received)
    return send(push.received(received[1]!).map((p) => ({ url: (p.payload as { url?: string }).url, at: p.at.getTime() })));
  res.writeHead(404).end();
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
console.log(JSON.stringify({ ready: true, control: `http://127.0.0.1:${(control.address() as AddressInfo).port}` }));
process.on('SIGTERM', async () => {
  control.close();
  await push.close();
  process.exit(0);
});
