export { Page, type PageProps, STYLESHEET_PATH } from './layout.tsx';
export { newNonce, type PageHeaderOptions, pageHeaders } from './security-headers.ts';
export { STYLESHEET, STYLESHEET_ETAG } from './stylesheet.ts';
