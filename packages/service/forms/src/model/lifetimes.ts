import { MAX_WAIT_MS } from '@sess/contract';

/** Default horizon of an extendable link: 7 days from its creation (`SESS_LINK_HORIZON_SECONDS`). */
export const DEFAULT_LINK_HORIZON_SECONDS = 7 * 86_400;
/** Links of this lifetime or less may be extended by the person ("Ask for more time"). */
export const EXTENDABLE_MAX_SECONDS = 20 * 3_600;
/** `expires_in` when a create leaves it out: 20 hours (so the link is extendable), or the plan's ceiling if lower. */
export const DEFAULT_EXPIRES_IN_SECONDS = 20 * 3_600;
/** The longest wait of a read (`wait_ms`), as in the seed: @sess/contract's, shared with sess_response. */
export { MAX_WAIT_MS };
/** The largest `respondents.max` of an Ask. */
export const MAX_ASK_RESPONDENTS = 1_000;
