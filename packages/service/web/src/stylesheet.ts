import { createHash } from 'node:crypto';
import { STYLESHEET_CSS } from './stylesheet-css.ts';

/** The one stylesheet, with a strong ETag computed once. */
export const STYLESHEET = STYLESHEET_CSS;
export const STYLESHEET_ETAG = `"${createHash('sha256').update(STYLESHEET).digest('base64url').slice(0, 22)}"`;
