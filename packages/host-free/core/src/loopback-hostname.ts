/**
 * A URL hostname only this computer reaches: `localhost` and `*.localhost` (RFC 6761),
 * 127.0.0.0/8 and `[::1]` (as `URL.hostname` writes it). The start-up text and the answer page
 * use it to tell when a link cannot open on a phone.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}
