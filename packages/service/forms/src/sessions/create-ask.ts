import type { CreatedAsk } from '@sess/contract';
import { newId, SessError } from '@sess/core';
import { hashSurface, parseAskArguments, toSurface } from '@sess/surface';
import { DEFAULT_EXPIRES_IN_SECONDS, MAX_ASK_RESPONDENTS } from '../model/lifetimes.ts';
import { linkUrl, newLinkToken } from '../model/link-tokens.ts';
import { planFor } from '../model/plans.ts';
import { decideAudience, withCurrentFloor } from './audience.ts';
import type { WorkspaceContext } from './context.ts';
import { checkLifetime, type Lifetime, linkTimes, type PreparedCreate, prepareNewSession } from './insert-session.ts';

/** A new Ask (@sess/contract's `CreatedAskSchema`): one shared link, many respondents. */
export type { CreatedAsk };

export interface CreateAskInput {
  ctx: WorkspaceContext;
  /** sess_ask's arguments with `respondents` (validated here; errors point into it). */
  input: unknown;
  idempotencyKey?: string | undefined;
}

/**
 * Creates an Ask from sess_ask arguments with `respondents: { max, name?, expires_in?,
 * respondent_expires_in? }`. The Surface is `toSurface(args)` (with `name: true`, a required
 * "Your name" field first). The Ask's one deadline is `respondents.expires_in`, else
 * `expires_in`, else the default; Asks are not extendable. `max` is at most 1,000.
 * An Ask is answered at `link` only (for now): under a floor above it, it is refused at `/respondents`.
 * @throws SessError `INVALID_ARGUMENTS` (with `field`), `PLAN_LIMIT_REACHED`, `IDEMPOTENCY_KEY_REUSED`.
 */
export async function createAsk(input: CreateAskInput): Promise<CreatedAsk> {
  return withCurrentFloor(input.ctx.runtime, async () => (await prepareAsk(input)).store());
}

/** Builds an Ask as `createAsk` does, for a later `store` that may carry the caller's own rows in the same statement (both inside `withCurrentFloor`). */
export async function prepareAsk({ ctx, input, idempotencyKey }: CreateAskInput): Promise<PreparedCreate<CreatedAsk>> {
  const args = parseAskArguments(input);
  const respondents = args.respondents;
  if (!respondents) {
    throw new SessError(
      'INVALID_ARGUMENTS',
      'respondents is required for an Ask: { "max": 10 } asks up to ten people through one link. Without it, create an ordinary session.',
      { field: '/respondents' },
    );
  }
  if (respondents.max > MAX_ASK_RESPONDENTS) {
    throw new SessError(
      'INVALID_ARGUMENTS',
      `respondents/max is ${respondents.max}; an Ask takes at most ${MAX_ASK_RESPONDENTS} respondents.`,
      { field: '/respondents/max', limit: MAX_ASK_RESPONDENTS, length: respondents.max },
    );
  }
  const given: Lifetime | undefined =
    respondents.expires_in !== undefined
      ? { seconds: respondents.expires_in, field: '/respondents/expires_in' }
      : args.expires_in !== undefined
        ? { seconds: args.expires_in, field: '/expires_in' }
        : undefined;
  const perRespondent: Lifetime | undefined =
    respondents.respondent_expires_in !== undefined
      ? { seconds: respondents.respondent_expires_in, field: '/respondents/respondent_expires_in' }
      : undefined;
  if (ctx.plan !== undefined) {
    const plan = planFor(ctx.plan);
    if (given) checkLifetime(plan, given);
    if (perRespondent) checkLifetime(plan, perRespondent);
  }
  let audience = await decideAudience(ctx, args);
  // A refusal is never made on a cached floor: no store would find it stale.
  if (audience.assurance !== 'link' && audience.floorSeen) audience = await decideAudience(ctx, args, { fresh: true });
  if (audience.assurance !== 'link') {
    // The floor says every form needs its person's sign-in, and an Ask cannot be answered that
    // way yet: refused, rather than made at a level below the floor.
    throw new SessError(
      'INVALID_ARGUMENTS',
      `Forms made here need assurance "${audience.assurance}" (the floor set on /account), and an Ask (respondents) is answered by whoever holds its link: named respondents come later. Ask one person without respondents instead.`,
      { field: '/respondents' },
    );
  }
  const surface = toSurface(args);
  const surfaceSha256 = hashSurface(surface);
  const { runtime } = ctx;
  return prepareNewSession(
    ctx,
    idempotencyKey === undefined ? undefined : { key: idempotencyKey, operation: 'asks.create', request: input, sealed: true },
    (plan, now) => {
      const lifetime = given ?? { seconds: Math.min(DEFAULT_EXPIRES_IN_SECONDS, plan.linkLifetimeSeconds), field: '/expires_in' };
      checkLifetime(plan, lifetime);
      if (perRespondent) checkLifetime(plan, perRespondent);
      const id = newId('ask');
      const token = newLinkToken();
      const times = linkTimes(runtime, now, lifetime.seconds, false);
      const ask = { max: respondents.max, name: respondents.name === true, respondentSeconds: perRespondent?.seconds ?? null };
      const result: CreatedAsk = {
        askId: id,
        sessionId: id,
        kind: 'ask',
        revision: 1,
        state: 'waiting',
        humanUrl: linkUrl(runtime.linkUrl, token),
        createdAt: times.createdAt.toISOString(),
        expiresAt: times.expiresAt.toISOString(),
        surfaceSha256,
        assurance: 'link',
        ask: { id, max: ask.max, name: ask.name, respondentExpiresIn: ask.respondentSeconds },
      };
      return {
        session: {
          id,
          workspaceId: ctx.workspaceId,
          kind: 'ask',
          token,
          lifetimeSeconds: lifetime.seconds,
          times,
          surface,
          surfaceSha256,
          // An Ask's link is for others: never answered in the agent's chat (parseAskArguments refused `true`).
          answerInChat: false,
          audience,
          ask,
        },
        result,
      };
    },
  );
}
