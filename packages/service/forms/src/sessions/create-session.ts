import type { CreatedSession } from '@sess/contract';
import { newId } from '@sess/core';
import { hashSurface, parseRequestArguments } from '@sess/surface';
import { DEFAULT_EXPIRES_IN_SECONDS } from '../model/lifetimes.ts';
import { linkUrl, newLinkToken } from '../model/link-tokens.ts';
import type { Plan } from '../model/plans.ts';
import { planFor } from '../model/plans.ts';
import { askedForHash, decideAudience, type FormAudience, withCurrentFloor } from './audience.ts';
import type { WorkspaceContext } from './context.ts';
import {
  checkLifetime,
  linkTimes,
  type NewSession,
  type OwnersNotice,
  type PreparedCreate,
  prepareNewSession,
  storeNewSession,
} from './insert-session.ts';

/**
 * A new interaction (@sess/contract's `CreatedSessionSchema`): the link is in `humanUrl`, shown
 * here once and never again (`PUBLIC_URL/s/<token>`, a bearer capability; only its hash is stored).
 */
export type { CreatedSession };

export interface CreateSessionInput {
  ctx: WorkspaceContext;
  /** sess_request's arguments: `{ interaction, expires_in?, answer_in_chat? }` (validated here; errors point into it). */
  input: unknown;
  /** Makes the create safe to repeat: the same key and arguments return the same session. */
  idempotencyKey?: string | undefined;
  /**
   * Made with a workspace API key (/v1 sets it): the workspace's owners who chose so are told,
   * through the runtime's `apiKeyNotices`, in the create's transaction. `notified` says so.
   */
  notifyOwners?: boolean | undefined;
}

/** An API key's create tells the owners the form's link (see `storeNewSession`). */
const OWNERS_NOTICE: OwnersNotice<CreatedSession> = {
  url: (created) => created.humanUrl,
  told: (created) => ({ ...created, notified: true }),
};

/** sess_request's arguments as `parseRequestArguments` returns them. */
export type RequestArguments = ReturnType<typeof parseRequestArguments>;

/** The idempotency of a create, and how it is built, for validated arguments. */
function sessionCreate(
  ctx: WorkspaceContext,
  args: RequestArguments,
  surfaceSha256: string,
  idempotencyKey: string | undefined,
  audience: FormAudience,
) {
  const { runtime } = ctx;
  if (ctx.plan !== undefined && args.expires_in !== undefined) {
    checkLifetime(planFor(ctx.plan), { seconds: args.expires_in, field: '/expires_in' });
  }
  const answerInChat = args.answer_in_chat ?? true;
  // The validated arguments, with the Surface as its canonical hash: two requests that mean the
  // same create are the same request, and the Surface is not serialised a second time.
  // `answer_in_chat` is named only when false: absent and true are the same create, and a
  // request without it keeps the hash it had before the field existed.
  const request = {
    expires_in: args.expires_in ?? null,
    interaction_sha256: surfaceSha256,
    ...(answerInChat ? {} : { answer_in_chat: false }),
    ...askedForHash(args),
  };
  const idempotency =
    idempotencyKey === undefined ? undefined : { key: idempotencyKey, operation: 'sessions.create', request, sealed: true };
  const build = (plan: Plan, now: Date) => {
    const seconds = args.expires_in ?? Math.min(DEFAULT_EXPIRES_IN_SECONDS, plan.linkLifetimeSeconds);
    checkLifetime(plan, { seconds, field: '/expires_in' });
    const id = newId('session');
    const token = newLinkToken();
    const times = linkTimes(runtime, now, seconds, true);
    const result: CreatedSession = {
      sessionId: id,
      kind: 'interaction',
      revision: 1,
      state: 'waiting',
      humanUrl: linkUrl(runtime.linkUrl, token),
      createdAt: times.createdAt.toISOString(),
      expiresAt: times.expiresAt.toISOString(),
      horizonAt: times.horizonAt?.toISOString() ?? null,
      extendable: times.extendable,
      surfaceSha256,
      answerInChat,
      assurance: audience.assurance,
      notified: false,
    };
    const session: NewSession = {
      id,
      workspaceId: ctx.workspaceId,
      kind: 'interaction',
      token,
      lifetimeSeconds: seconds,
      times,
      surface: args.interaction,
      surfaceSha256,
      answerInChat,
      audience,
    };
    return { session, result };
  };
  return { idempotency, build };
}

/**
 * Creates an interaction from a valid Surface. `expires_in` (whole seconds, 30 up to the plan's
 * link lifetime; default 20 hours or the plan's ceiling if lower) sets `expiresAt`; a lifetime
 * of 20 hours or less makes the link extendable up to the runtime's horizon.
 * @throws SessError `INVALID_ARGUMENTS` (with `field`; an `expires_in` over the plan's ceiling
 * names the ceiling in `limit`), `PLAN_LIMIT_REACHED` (open sessions at the plan's limit;
 * nothing is created), `IDEMPOTENCY_KEY_REUSED`. The form's `assurance` is the one asked for,
 * raised to its maker's floor (`decideAudience`). `notified` is true only when `notifyOwners`
 * wrote a notice for someone; an idempotent replay returns the stored result as it was.
 */
export async function createSession({ ctx, input, idempotencyKey, notifyOwners }: CreateSessionInput): Promise<CreatedSession> {
  const args = parseRequestArguments(input);
  const surfaceSha256 = hashSurface(args.interaction);
  return withCurrentFloor(ctx.runtime, async () => {
    const audience = await decideAudience(ctx, args);
    const { idempotency, build } = sessionCreate(ctx, args, surfaceSha256, idempotencyKey, audience);
    return storeNewSession(ctx, idempotency, build, notifyOwners ? OWNERS_NOTICE : undefined);
  });
}

/**
 * Builds an interaction from arguments the caller already validated with
 * `parseRequestArguments` (the MCP tool layer does, before it calls the in-process backend), for
 * a later `store` that may carry the caller's own rows in the same statement. `surfaceSha256`,
 * when the caller has it, is `hashSurface(args.interaction)`. Prepare and store inside
 * `withCurrentFloor`: the store refuses a form decided under a floor that has since moved.
 * @throws SessError as `createSession` (from `store` for the limits)
 */
export async function prepareSession(input: {
  ctx: WorkspaceContext;
  args: RequestArguments;
  surfaceSha256?: string | undefined;
  idempotencyKey?: string | undefined;
}): Promise<PreparedCreate<CreatedSession>> {
  const surfaceSha256 = input.surfaceSha256 ?? hashSurface(input.args.interaction);
  const audience = await decideAudience(input.ctx, input.args);
  const { idempotency, build } = sessionCreate(input.ctx, input.args, surfaceSha256, input.idempotencyKey, audience);
  return prepareNewSession(input.ctx, idempotency, build);
}
