/** RFC 6901 JSON pointers: the `field` of every argument error. */

/** @see https://www.rfc-editor.org/rfc/rfc6901#section-3 */
export function escapePointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds `/a/b/0` from path segments; the empty path is the whole document, `""`. */
export function toPointer(path: ReadonlyArray<string | number | symbol>): string {
  let out = '';
  for (const segment of path)
    out += `/${escapePointerToken(typeof segment === 'symbol' ? String(segment.description) : segment)}`;
  return out;
}

/** Appends one token to an existing pointer. */
export function childPointer(base: string, token: string | number): string {
  return `${base}/${escapePointerToken(token)}`;
}
