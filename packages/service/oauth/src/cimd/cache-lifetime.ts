/** How long a fetched metadata document is reused when its response says nothing. */
export const DEFAULT_DOCUMENT_TTL_S = 300;
/** Never trust a document for longer than a day, whatever its headers say. */
export const MAX_DOCUMENT_TTL_S = 86_400;

/**
 * Seconds a fetched Client ID Metadata Document may be reused, from its `Cache-Control`:
 * `no-store` / `no-cache` → 0 (fetched again on the next authorization request), `max-age=N`
 * → N (`s-maxage` wins, as for a shared cache), capped at a day; no header → 5 minutes.
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-5.2.2
 */
export function cacheLifetimeSeconds(cacheControl: string | null | undefined): number {
  if (!cacheControl) return DEFAULT_DOCUMENT_TTL_S;
  const directives = new Map<string, string | true>();
  for (const part of cacheControl.toLowerCase().split(',')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name) directives.set(name, value === undefined ? true : value.replace(/^"|"$/g, ''));
  }
  if (directives.has('no-store') || directives.has('no-cache')) return 0;
  const raw = directives.get('s-maxage') ?? directives.get('max-age');
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) return DEFAULT_DOCUMENT_TTL_S;
  return Math.min(Number(raw), MAX_DOCUMENT_TTL_S);
}
