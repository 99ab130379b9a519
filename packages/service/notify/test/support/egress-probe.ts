/*
 * Runs inside a network namespace made by egress-netns.test.ts, where every address under test
 * is assigned to the namespace's own loopback interface, so each one is really reachable. One
 * listener on [::]:port (dual-stack) counts the connections it accepts. First a control: a
 * plain connect to each address, which shows which ones a connection can reach. Then the real
 * push sender, through production's egress policy, to each address written in the endpoint and
 * to a name that resolves to it (a DNS server on the namespace's loopback, given to the egress).
 * Prints one JSON line: what the control reached and what the sender reached.
 */
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { createEgress } from '@sess/core/egress';
import { sendPush } from '@sess/notify';
import { startDnsServer } from '@sess/testkit/dns-server';
import webPush from 'web-push';

interface ProbeInput {
  refused: string[];
  allowed: string[];
}

const input = JSON.parse(process.argv[2] ?? '{}') as ProbeInput;
const accepted: string[] = [];
const sockets = new Set<Socket>();
const listener = createServer((socket) => {
  accepted.push(socket.localAddress ?? '?');
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  socket.on('error', () => {});
  socket.destroy();
});
await new Promise<void>((resolve) => listener.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
const port = (listener.address() as { port: number }).port;

/** Whether a plain TCP connect to the address reaches anything (the listener, here). */
function reachable(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port, timeout: 1_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** Waits until the listener has seen every connection started so far (accepts are asynchronous). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

const control: Record<string, boolean> = {};
for (const address of [...input.refused, ...input.allowed]) control[address] = await reachable(address);
await settle();
const controlAccepted = accepted.splice(0).length;

const dns = await startDnsServer();
const egress = createEgress({ policy: 'public', dnsServers: [dns.server] });
const vapid = { subject: 'mailto:probe@sess.test', ...webPush.generateVAPIDKeys() };
const keys = {
  p256dh: webPush.generateVAPIDKeys().publicKey, // any P-256 point: the push is encrypted to it
  auth: randomBytes(16).toString('base64url'),
};
const options = { vapid, ttlSeconds: 60, topic: 'probe', urgency: 'high' as const, timeoutMs: 2_000, egress };
const hostOf = (address: string) => (address.includes(':') ? `[${address}]` : address);

const outcomes: Record<string, { literal: string; named: string }> = {};
let n = 0;
for (const address of [...input.refused, ...input.allowed]) {
  const name = `target-${n++}.probe.test`;
  dns.set(name, [address]);
  const literal = await sendPush({ endpoint: `https://${hostOf(address)}:${port}/push/x`, keys }, 'hello', options);
  const named = await sendPush({ endpoint: `https://${name}:${port}/push/x`, keys }, 'hello', options);
  outcomes[address] = { literal: literal.outcome, named: named.outcome };
}
await settle();
const senderAccepted = accepted.splice(0);

egress.close();
await dns.close();
for (const socket of sockets) socket.destroy();
listener.close();
process.stdout.write(`${JSON.stringify({ control, controlAccepted, outcomes, senderAccepted })}\n`);
