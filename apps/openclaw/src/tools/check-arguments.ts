import { SessCompleteInputSchema, SessPublishInputSchema, SessResponseInputSchema } from '@sess/contract';
import { parseArguments, parseAskArguments, parseRequestArguments, parseSurface } from '@sess/surface';
import { z } from 'zod';
import type { OpenclawToolName } from './tool-schemas.ts';

/*
 * A tool's arguments checked by the same parsers its operation runs first (@sess/surface's, over
 * the contract's schemas), before OpenClaw checks them against the parameter schema. OpenClaw
 * calls this as the tool's `prepareArguments`: a refusal here reaches the model as our
 * INVALID_ARGUMENTS (code, JSON pointer, limit, length, how to fix it) instead of OpenClaw's
 * generic schema message. The operation parses again; this only decides what is said first.
 */

/** sess_publish's envelope, the form itself parsed as a Surface (as the operation does). */
const PUBLISH_ENVELOPE = SessPublishInputSchema.extend({ interaction: z.unknown() });

/** True when `params` carries the full form: sess_ask then runs as sess_request. */
export function isFullForm(params: unknown): boolean {
  return params !== null && typeof params === 'object' && Object.hasOwn(params, 'interaction');
}

/**
 * Parses `params` as the tool's operation will.
 * @throws SessError `INVALID_ARGUMENTS` at the first problem's JSON pointer.
 */
export function checkArguments(name: OpenclawToolName, params: unknown): void {
  switch (name) {
    case 'sess_ask':
      if (isFullForm(params)) parseRequestArguments(params);
      else parseAskArguments(params);
      return;
    case 'sess_response':
      parseArguments(SessResponseInputSchema, params);
      return;
    case 'sess_publish': {
      const args = parseArguments(PUBLISH_ENVELOPE, params);
      parseSurface(args.interaction, '/interaction');
      return;
    }
    case 'sess_complete':
      parseArguments(SessCompleteInputSchema, params);
      return;
  }
}
