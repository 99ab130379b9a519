/*
 * @sess/error-pages: the one HTML error mapper (a thrown value → a page Response), used by every
 * face that answers with pages. See README.md.
 */
export { classifyPageFailure, type PageFailure } from './classify-page-failure.ts';
export { type ErrorPageOptions, errorPage } from './error-page.ts';
