import type { CreatedAsk } from '@sess/contract';
import { decisionThresholds, newId, SessError } from '@sess/core';
import { hashSurface, parseAskArguments, toSurface } from '@sess/surface';
import { DEFAULT_EXPIRES_IN_SECONDS, MAX_ASK_RESPONDENTS } from '../model/lifetimes.ts';
import { linkUrl, newLinkToken } from '../model/link-tokens.ts';
import { planFor } from '../model/plans.ts';
import { backupMembers, decideAudience, withCurrentFloor } from './audience.ts';
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
 * With `people` (named respondents, workspace members by e-mail) the Ask is for them, at `account`
 * at least (each signs in; one page each; `max` is their number), and with the runtime's
 * `peopleNotices` each is told on their own devices. Without people it is answered at `link`:
 * under a floor above it, it is refused at `/respondents`.
 * @throws SessError `INVALID_ARGUMENTS` (with `field`), `PLAN_LIMIT_REACHED`, `IDEMPOTENCY_KEY_REUSED`.
 */
export async function createAsk(input: CreateAskInput): Promise<CreatedAsk> {
  const { runtime, tx } = input.ctx;
  return withCurrentFloor(runtime, async () => {
    const prepared = await prepareAsk(input);
    const hook = runtime.peopleNotices;
    // Inside a caller's transaction, the caller tells whom it will.
    if (prepared.people.length === 0 || !hook || tx) return prepared.store();
    return runtime.database.db.transaction(async (t) => {
      const result = await prepared.store({ tx: t });
      // A replay (another id) was told when it was made.
      if (result.askId !== prepared.result.askId) return result;
      const form = {
        workspaceId: input.ctx.workspaceId,
        sessionId: result.askId,
        title: prepared.title,
        url: result.humanUrl,
        expiresAt: new Date(result.expiresAt),
      };
      await hook.enqueue(t, { ...form, userIds: prepared.people });
      // The backups' notices wait for the escalation; the worker drops them if the Ask is full or decided by then.
      if (prepared.backups.length > 0 && result.ask.escalateAt !== undefined)
        await hook.enqueue(t, { ...form, userIds: prepared.backups, notBefore: new Date(result.ask.escalateAt) });
      return result;
    });
  });
}

/** An Ask built and not yet stored, with the accounts of its named people (to notify them). */
export interface PreparedAsk extends PreparedCreate<CreatedAsk> {
  /** The user ids of `respondents.people`, in the order given; empty for an Ask anyone with the link answers. */
  readonly people: readonly string[];
  /** The user ids of `respondents.escalate.to`: told when the Ask escalates (and only if it is still open then). */
  readonly backups: readonly string[];
  /** The Ask's question (its Surface's title), as its notices show it. */
  readonly title: string;
}

/**
 * What the idempotency hash names of an Ask's request: the body as sent, with its people (and
 * backup people) lowercased (the same members in another case are the same request). Without
 * people, the body as it always was.
 */
function hashedRequest(input: unknown, people: string[] | undefined, backups: string[] | undefined): unknown {
  if (people === undefined) return input;
  const body = input as { respondents: Record<string, unknown> & { escalate?: Record<string, unknown> } };
  const lower = (emails: string[]) => emails.map((email) => email.trim().toLowerCase());
  const respondents = { ...body.respondents, people: lower(people) };
  if (backups !== undefined) respondents.escalate = { ...body.respondents.escalate, to: lower(backups) };
  return { ...body, respondents };
}

/** Builds an Ask as `createAsk` does, for a later `store` that may carry the caller's own rows in the same statement (both inside `withCurrentFloor`). */
export async function prepareAsk({ ctx, input, idempotencyKey }: CreateAskInput): Promise<PreparedAsk> {
  const args = parseAskArguments(input);
  const respondents = args.respondents;
  if (!respondents) {
    throw new SessError(
      'INVALID_ARGUMENTS',
      'respondents is required for an Ask: { "max": 10 } asks up to ten people through one link. Without it, create an ordinary session.',
      { field: '/respondents' },
    );
  }
  const people = respondents.people;
  // Named people: one place each (parseAskArguments refused a max that differs).
  const max = people?.length ?? respondents.max ?? 0;
  if (max > MAX_ASK_RESPONDENTS) {
    throw new SessError(
      'INVALID_ARGUMENTS',
      `respondents/max is ${max}; an Ask takes at most ${MAX_ASK_RESPONDENTS} respondents.`,
      { field: '/respondents/max', limit: MAX_ASK_RESPONDENTS, length: max },
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
  const asked = { assurance: args.assurance, people };
  // The one level an Ask is answered at: `link`, or `account` for named people (no passkey yet).
  const level = people === undefined ? 'link' : 'account';
  let audience = await decideAudience(ctx, asked);
  // A refusal is never made on a cached floor: no store would find it stale.
  if (audience.assurance !== level && audience.floorSeen) audience = await decideAudience(ctx, asked, { fresh: true });
  if (audience.assurance !== level) {
    // The floor is above what this Ask can be answered at: refused, rather than made below it.
    throw new SessError(
      'INVALID_ARGUMENTS',
      people === undefined
        ? `Forms made here need assurance "${audience.assurance}" (the floor set on /account), and an Ask without respondents.people is answered by whoever holds its link. Name the members who answer in respondents.people (each then signs in), or ask one person without respondents.`
        : `Forms made here need assurance "${audience.assurance}" (the floor set on /account), and an Ask with respondents.people is answered at "account": a passkey is not taken on an Ask yet. Ask each person on their own form instead.`,
      { field: '/respondents' },
    );
  }
  const escalate = respondents.escalate;
  const backups = escalate === undefined ? [] : await backupMembers(ctx, escalate.to);
  const surface = toSurface(args);
  const surfaceSha256 = hashSurface(surface);
  const { runtime } = ctx;
  const prepared = await prepareNewSession(
    ctx,
    idempotencyKey === undefined
      ? undefined
      : { key: idempotencyKey, operation: 'asks.create', request: hashedRequest(input, people, escalate?.to), sealed: true },
    (plan, now) => {
      const lifetime = given ?? { seconds: Math.min(DEFAULT_EXPIRES_IN_SECONDS, plan.linkLifetimeSeconds), field: '/expires_in' };
      checkLifetime(plan, lifetime);
      if (perRespondent) checkLifetime(plan, perRespondent);
      if (escalate !== undefined && escalate.after >= lifetime.seconds) {
        throw new SessError(
          'INVALID_ARGUMENTS',
          `/respondents/escalate/after is ${escalate.after} s, not before the Ask ends (${lifetime.seconds} s): nobody could be asked. Make it shorter, or give the Ask longer with respondents.expires_in.`,
          { field: '/respondents/escalate/after', limit: lifetime.seconds - 1, length: escalate.after },
        );
      }
      const id = newId('ask');
      const token = newLinkToken();
      const times = linkTimes(runtime, now, lifetime.seconds, false);
      const rule = respondents.decide;
      const ask = {
        max,
        name: respondents.name === true,
        respondentSeconds: perRespondent?.seconds ?? null,
        ...(rule === undefined
          ? {}
          : { decide: { rule, quorum: respondents.quorum ?? null, ...decisionThresholds(rule, respondents.quorum, max) } }),
        ...(escalate === undefined
          ? {}
          : { escalate: { backupUserIds: backups, at: new Date(times.createdAt.getTime() + escalate.after * 1000) } }),
      };
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
        assurance: audience.assurance,
        ask: {
          id,
          max: ask.max,
          name: ask.name,
          respondentExpiresIn: ask.respondentSeconds,
          ...(rule === undefined
            ? {}
            : { decide: rule, ...(respondents.quorum === undefined ? {} : { quorum: respondents.quorum }) }),
          ...(ask.escalate === undefined ? {} : { escalateAt: ask.escalate.at.toISOString(), backups: backups.length }),
        },
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
  return Object.assign(prepared, {
    people: people === undefined ? [] : (audience.forUserIds ?? []),
    backups,
    title: surface.title,
  });
}
