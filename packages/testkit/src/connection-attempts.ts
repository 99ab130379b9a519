import dc from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/**
 * Records every outgoing TCP connection attempt this process makes (Node's own
 * `net.client.socket` diagnostics channel and each socket's `connectionAttempt` event), so a
 * test can prove that an address was refused before any connection was tried.
 */
export function recordConnectionAttempts(): { attempts: Array<{ address: string; port: number }>; stop(): void } {
  const attempts: Array<{ address: string; port: number }> = [];
  const onSocket = (message: unknown) => {
    (message as { socket: Socket }).socket.on('connectionAttempt', (address: string, port: number) =>
      attempts.push({ address, port }),
    );
  };
  dc.subscribe('net.client.socket', onSocket);
  return { attempts, stop: () => dc.unsubscribe('net.client.socket', onSocket) };
}
