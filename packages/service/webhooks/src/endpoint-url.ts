import { SessError } from '@sess/core';
import { checkEgressUrl, type EgressPolicy } from '@sess/core/egress';

/**
 * An endpoint URL as registration takes it, or WEBHOOK_URL_REFUSED with `/url` and a reason.
 * The egress checks everything that needs no DNS here (scheme, credentials, an address written
 * in the URL, `localhost`); it checks the addresses a name resolves to at every connect.
 */
export function checkEndpointUrl(raw: string, policy: EgressPolicy): string {
  const refuse = (reason: string, message: string) => new SessError('WEBHOOK_URL_REFUSED', message, { field: '/url', reason });
  if (!URL.canParse(raw)) throw refuse('not_a_url', 'url must be an absolute URL such as https://example.com/hooks/sess.');
  const url = new URL(raw);
  if (url.username || url.password) throw refuse('credentials', 'url must not carry a user name or password.');
  const verdict = checkEgressUrl(url, policy);
  if (verdict.ok) return url.toString();
  if (verdict.reason === 'url_not_allowed') throw refuse('not_https', `url must use https:// (${verdict.message}).`);
  throw refuse('private_address', `url must name a public host; Sess does not send to ${verdict.message}.`);
}
