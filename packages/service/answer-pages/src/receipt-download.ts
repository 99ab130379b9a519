import type { LinkView } from '@sess/forms';
import { shownAnswer } from './to-page-view.ts';

/**
 * The compact JWS media type.
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-9.2.1
 */
export const RECEIPT_CONTENT_TYPE = 'application/jose';

/** The receipt file the page offers: `sess-receipt-<event id>.jws`, holding the compact JWS alone. */
export interface ReceiptDownload {
  fileName: string;
  body: string;
}

/**
 * The receipt of the answer the page shows back to the person (see `shownAnswer`), or
 * undefined when the page shows none. It holds ids and hashes of this one answer, nothing of
 * another respondent's.
 */
export function receiptDownload(view: LinkView): ReceiptDownload | undefined {
  const answer = shownAnswer(view);
  if (!answer) return undefined;
  // Event ids are `evt_` + base32; anything else is dropped so the header stays a plain token.
  const id = answer.eventId.replace(/[^A-Za-z0-9_-]/g, '');
  return { fileName: `sess-receipt-${id}.jws`, body: answer.receipt };
}
