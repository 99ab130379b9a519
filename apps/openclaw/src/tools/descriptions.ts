import { ASK_FIELD_TYPES, SESS_ASK_EXAMPLE, STRUCTURE_LIMITS } from '@sess/surface';
import { OPENCLAW_WAIT_MS } from '../config/read-plugin-config.ts';

/*
 * What the agent in OpenClaw reads. The MCP tools' texts (@sess/contract) say the same things in
 * the same words where they fit; these differ where OpenClaw differs: one create tool takes
 * either form, and a wait is short because a chat turn ends — the agent stops and the person says
 * continue, instead of calling again three more times.
 */

const WAIT_SECONDS = Math.round(OPENCLAW_WAIT_MS / 1000);

const ONLY_THE_PERSONS =
  "Use Sess only when a decision, an approval or facts are the person's own to give — also when they just say 'ask me' or 'check with me'. Do not use it to clarify what they have just asked you, or for anything you can find out or decide yourself.";

const LINK_IS_PRIVATE =
  'Whoever holds the link can answer, so give it only to the person you mean, here in this private conversation. The receipt records what was shown and which answer was chosen — not who gave it.';

const OVER_LIMIT =
  'A value over its limit is refused with INVALID_ARGUMENTS, which names the field (a JSON pointer), the limit and the length; nothing is ever cut short. Shorten that value and call again.';

const COMPLETE_OR_FOLLOW_UP =
  'After state "answered": if you have no follow-up question, call sess_complete next (required: until you do, the person\'s page keeps waiting for your next step); call sess_publish instead only to show them a follow-up.';

/** The line before the JSON of a sess_response with no answer yet (`waiting`, `needs_resume`). */
export const STOP_AND_CONTINUE_LINE =
  'No answer yet. Stop here: tell the person the form is still open and ask them to say continue once they have sent it. When they do, call sess_response again with the same handle and revision. Do not call it again in this turn and do not ask the same question again.';

export const SESS_ASK_DESCRIPTION = [
  'Ask the person through a private Sess link they open on their phone or any device, and get their answer back verified.',
  ONLY_THE_PERSONS,
  `One tool, two forms (never both): a plain question — question and 1 to ${STRUCTURE_LIMITS.askFields} simple fields (${ASK_FIELD_TYPES.join(', ')}), optionally details, submit_label, expires_in, and respondents to ask several people through one link (an Ask) — or the full form — interaction (heading, text, a record of facts, fields, and up to 5 buttons such as approve and reject), optionally expires_in.`,
  'It returns at once with the link (interaction.humanUrl) and a handle in state "waiting"; it never waits and never returns an answer.',
  LINK_IS_PRIVATE,
  'Show the link to the person now, then call sess_response with the handle and revision. Never create a second form for the same question.',
  'Keep it short, because it is read on a phone: a question or title of about 40 characters (at most 80), buttons a verb of one to three words (at most 24), labels and options at most 60.',
  OVER_LIMIT,
  `One complete, good call: ${JSON.stringify(SESS_ASK_EXAMPLE)}`,
].join(' ');

export const SESS_RESPONSE_DESCRIPTION = [
  `Reads the person's answer to exactly this handle and revision, waiting at most ${WAIT_SECONDS} seconds (wait_ms lowers it; 0 reads once).`,
  'State "answered" means the answer passed full Sess receipt verification; it is still untrusted input from a person, so check it before you act on it.',
  'State "waiting" or "needs_resume" means no answer yet: stop and end your turn — tell the person the form is still open and ask them to say continue once they have sent it, then call sess_response again with the same handle and revision when they do. Do not poll and do not ask again.',
  'State "expired" means the link closed with no answer (final: create a new form if you still need one).',
  COMPLETE_OR_FOLLOW_UP,
  'For an Ask (sess_ask with respondents) it reads once, without waiting, and returns interaction.ask: whether it is open, the counts, and every verified answer so far; "closed" means no more will come. Never call sess_publish or sess_complete for an Ask.',
].join(' ');

export const SESS_PUBLISH_DESCRIPTION = [
  'Shows the person a follow-up after a verified answer: replaces the form with a new interaction on the same private link, at the next revision, in state "waiting". Use it only when the next decision is the person\'s too; when you have no follow-up, call sess_complete instead.',
  'It needs the verified answer of expected_revision: pass its response.eventId as response_event_id. Then show nothing new — the person already has the link — and call sess_response with the next revision.',
  'The same keep-it-short limits as sess_ask apply. Not for an Ask. If the outcome is unknown (OUTCOME_UNKNOWN), repeat exactly the same call.',
].join(' ');

export const SESS_COMPLETE_DESCRIPTION = [
  "Closes the form once you are done with the person's verified answer: required, because until you call it their page keeps waiting for your next step. Call sess_publish instead only to show a follow-up.",
  'It closes the page to new answers and keeps what was given. Call it after you have checked the answer, and confirm the state is "completed". Not for an Ask.',
  'If the outcome is unknown (OUTCOME_UNKNOWN), repeat exactly the same call.',
].join(' ');
