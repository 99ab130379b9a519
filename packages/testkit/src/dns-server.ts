import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

/**
 * A DNS server on loopback whose answers the test sets: given to Sess as its egress DNS server
 * (SESS_EGRESS_DNS_SERVERS), so a test can make a name resolve to any address — a private one,
 * a rebinding one — without touching the machine's resolver. UDP, A and AAAA only; an unknown
 * name is NXDOMAIN.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as a DNS server list takes it. */
  server: string;
  /** Sets the answers for `name` (addresses of either family, each with `ttl` seconds; default 0). */
  set(name: string, addresses: readonly string[], ttl?: number): void;
  /** How many questions were asked for `name`. */
  asked(name: string): number;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, { addresses: readonly string[]; ttl: number }>();
  const questions = new Map<string, number>();
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    questions.set(name, (questions.get(name) ?? 0) + 1);
    const entry = zone.get(name);
    const wanted = question.type === 'A' ? /^\d+\.\d+\.\d+\.\d+$/ : /:/;
    const answers = (entry?.addresses ?? [])
      .filter((address) => (question.type === 'A' || question.type === 'AAAA') && wanted.test(address))
      .map((address) => ({ type: question.type as 'A' | 'AAAA', name: question.name, ttl: entry!.ttl, data: address }));
    const reply = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (entry ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers,
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    set: (name, addresses, ttl = 0) => zone.set(name.toLowerCase(), { addresses, ttl }),
    asked: (name) => questions.get(name.toLowerCase()) ?? 0,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
