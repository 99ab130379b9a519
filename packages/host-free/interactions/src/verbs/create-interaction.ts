import type { CreatedAsk, CreatedSession } from '@sess/contract';
import { isSessError, newId, newSecret, SessError, sha256CanonicalJson } from '@sess/core';
import {
  type AskArguments,
  type AssuranceChoice,
  hashSurface,
  parseAskArguments,
  parseRequestArguments,
  type Surface,
  toSurface,
} from '@sess/surface';
import { backendContext, type ToolCall } from '../call.ts';
import type { HandlePatch, HandleRecord } from '../ports/handle-store.ts';
import { CommitFailure, type CreateAskInput, type CreateSessionInput, NotAppliedFailure } from '../ports/sess-backend.ts';
import type { InteractionResult } from '../results.ts';
import { classifyBackendError, patchHandle } from './handles.ts';

type Created = CreatedSession | CreatedAsk;

interface CreatePlan {
  tool: 'sess_request' | 'sess_ask';
  surface: Surface;
  expiresIn?: number;
  /** `answer_in_chat` as given (absent: true); an Ask's is in its arguments. */
  answerInChat?: boolean;
  /** `assurance` and `for` as given (absent: link, and the form's default accounts). */
  assurance?: AssuranceChoice;
  for?: string[];
  /** sess_ask's arguments when they ask many people (an Ask). */
  ask?: AskArguments;
  /** The request's hash for a saved create intent; computed only when an intent is saved. */
  requestSha256(): string;
}

/** sess_request: validates the interaction, then creates it (see `createPlanned`). */
export function planRequest(args: unknown): CreatePlan {
  const parsed = parseRequestArguments(args);
  const plan: CreatePlan = {
    tool: 'sess_request',
    surface: parsed.interaction,
    requestSha256: () => sha256CanonicalJson({ tool: 'sess_request', args: parsed }),
  };
  if (parsed.expires_in !== undefined) plan.expiresIn = parsed.expires_in;
  if (parsed.answer_in_chat !== undefined) plan.answerInChat = parsed.answer_in_chat;
  if (parsed.assurance !== undefined) plan.assurance = parsed.assurance;
  if (parsed.for !== undefined) plan.for = parsed.for;
  return plan;
}

/** sess_ask: the question and fields become an ordinary interaction, checked by the same rules. */
export function planAsk(args: unknown): CreatePlan {
  const parsed = parseAskArguments(args);
  const plan: CreatePlan = {
    tool: 'sess_ask',
    surface: toSurface(parsed),
    requestSha256: () => sha256CanonicalJson({ tool: 'sess_ask', args: parsed }),
  };
  if (parsed.expires_in !== undefined) plan.expiresIn = parsed.expires_in;
  if (parsed.answer_in_chat !== undefined) plan.answerInChat = parsed.answer_in_chat;
  if (parsed.assurance !== undefined) plan.assurance = parsed.assurance;
  if (parsed.for !== undefined) plan.for = parsed.for;
  if (parsed.respondents) plan.ask = parsed;
  return plan;
}

function notConfigured(): SessError {
  return new SessError('NOT_CONFIGURED', 'Sess is not configured to create forms here. The owner must configure the runtime.');
}

/** A refusal by the runtime before anything was created, with the runtime's field/limit/length. */
function createRejected(error: SessError): SessError {
  if (error.code === 'PLAN_LIMIT_REACHED' || error.code === 'CREATE_REJECTED') return error;
  const details: Record<string, unknown> = { reason: error.code };
  for (const key of ['field', 'limit', 'length'] as const)
    if (error.details[key] !== undefined) details[key] = error.details[key];
  return new SessError('CREATE_REJECTED', `Sess refused to create the form: ${error.message} No form was created.`, details);
}

function createUnknown(handle: string): SessError {
  return new SessError(
    'CREATE_OUTCOME_UNKNOWN',
    `It is not known whether the form was created (handle ${handle}). Do not create it again; the person can review it in their Sess account, under Interactions to review.`,
  );
}

/**
 * The atomic create lost its connection with its statement in flight (perhaps in its COMMIT)
 * and the handle cannot be read back: the session and its handle exist together or not at all,
 * and nothing is left for the owner's review, so the agent is told how to settle it.
 */
function commitUnknown(handle: string): SessError {
  return new SessError(
    'CREATE_OUTCOME_UNKNOWN',
    `It is not known whether the form was created (handle ${handle}): the database connection was lost while it was being saved. Before creating it again, call sess_cancel with this handle once Sess answers: it withdraws the form if it exists, and HANDLE_NOT_FOUND means it was never created.`,
  );
}

/**
 * Creates the session (or Ask) and its handle record. With a backend that writes both itself
 * (`createWithHandle`, the hosted one), the create and the record (intent and outcome in one
 * row) commit together: a hosted create is never outcome-unknown. Otherwise the intent is saved
 * first, the create is sent once and never retried, and a lost outcome leaves the handle
 * `create_unknown` for the owner; only a request that certainly never reached the runtime
 * (`NotAppliedFailure`) drops the intent and is `SESS_UNAVAILABLE`. A create is never abandoned
 * when the client goes away: no signal is passed to it.
 */
export async function createPlanned(call: ToolCall, plan: CreatePlan): Promise<InteractionResult> {
  const { deps, scope } = call;
  const backend = deps.backend;
  if (!backend) throw notConfigured();
  const { store, binding } = scope;
  const ctx = backendContext(scope);
  const handle = newId('handle');
  const idempotencyKey = newSecret(18);
  const at = deps.now().toISOString();
  const surfaceSha256 = hashSurface(plan.surface);
  // The record as first saved. A create written with its handle saves it with its outcome and
  // without an intent, so the request's hash is only computed for a saved intent.
  const newRecord = (): HandleRecord => ({
    ...binding,
    handle,
    kind: plan.ask ? 'ask' : 'interaction',
    state: 'create_intent',
    version: 1,
    revision: 1,
    surfaceSha256,
    title: plan.surface.title,
    createdAt: at,
    updatedAt: at,
  });

  const input = (): CreateSessionInput | CreateAskInput => {
    if (plan.ask) return { ask: plan.ask, idempotencyKey };
    const session: CreateSessionInput = { surface: plan.surface, idempotencyKey, surfaceSha256 };
    if (plan.expiresIn !== undefined) session.expiresIn = plan.expiresIn;
    if (plan.answerInChat !== undefined) session.answerInChat = plan.answerInChat;
    if (plan.assurance !== undefined) session.assurance = plan.assurance;
    if (plan.for !== undefined) session.for = plan.for;
    return session;
  };
  const send = (): Promise<Created> => {
    const made = input();
    return 'ask' in made ? backend.createAsk(ctx, made) : backend.createSession(ctx, made);
  };

  const outcome = (created: Created) => {
    const ask = created.kind === 'ask';
    return {
      state: 'waiting' as const,
      sessionId: ask ? undefined : created.sessionId,
      askId: ask ? created.askId : undefined,
      revision: created.revision,
      expiresAt: created.expiresAt,
      humanUrl: created.humanUrl,
    };
  };

  const result = (created: Created): InteractionResult => {
    const interaction: InteractionResult = {
      handle,
      revision: created.revision,
      state: 'waiting',
      humanUrl: created.humanUrl,
      expiresAt: created.expiresAt,
      // An Ask's link goes to whoever the agent shares it with: Sess tells no one of it.
      notified: created.kind === 'interaction' && created.notified,
      // The level the form got: what was asked for, raised to the maker's floor.
      assurance: created.assurance,
    };
    if (created.kind === 'ask') {
      interaction.ask = { id: created.askId, open: true, counts: { started: 0, answered: 0, max: created.ask.max } };
    }
    return interaction;
  };

  if (backend.createWithHandle) {
    try {
      // The intent and its outcome are one row, written in the create's own statement: the
      // session and its handle commit together or not at all, so this create can never be
      // outcome-unknown. The per-principal cap is checked by that statement (a full store
      // refuses the create).
      const created = await backend.createWithHandle(ctx, input(), (made) => {
        const o = outcome(made);
        const record: HandleRecord = {
          ...newRecord(),
          state: o.state,
          revision: o.revision,
          expiresAt: o.expiresAt,
          humanUrl: o.humanUrl,
        };
        if (o.sessionId) record.sessionId = o.sessionId;
        if (o.askId) record.askId = o.askId;
        return record;
      });
      return result(created);
    } catch (error) {
      if (error instanceof CommitFailure && error.committed === false) {
        throw new SessError(
          'SESS_UNAVAILABLE',
          'Sess could not create the form just now (its database could not be reached, or was too busy); nothing was created. Try again in a moment.',
          {},
          { cause: error, retryable: true },
        );
      }
      if (isSessError(error) && (error.code === 'STATE_STORE_FULL' || error.code === 'INVALID_ARGUMENTS')) {
        if (error.code === 'INVALID_ARGUMENTS') throw createRejected(error);
        throw error;
      }
      const failure = classifyBackendError(error);
      if (failure.kind === 'rejected') throw createRejected(failure.error);
      if (failure.kind === 'protocol' || failure.kind === 'configuration') throw failure.error;
      // The statement may have failed while committing. The record and the session commit
      // together, so the record's presence decides what happened.
      try {
        const landed = await store.get(handle);
        if (landed && landed.state === 'waiting' && landed.humanUrl) {
          const interaction: InteractionResult = {
            handle,
            revision: landed.revision,
            state: 'waiting',
            humanUrl: landed.humanUrl,
            // The create's own answer was lost: whether anyone is told is not known here.
            notified: false,
          };
          if (landed.expiresAt) interaction.expiresAt = landed.expiresAt;
          return interaction;
        }
      } catch {
        throw error instanceof CommitFailure ? commitUnknown(handle) : createUnknown(handle);
      }
      throw new SessError(
        isSessError(error) && error.code === 'STATE_STORE_ERROR' ? 'STATE_STORE_ERROR' : 'SESS_UNAVAILABLE',
        'The form could not be created just now; nothing was created. Try again in a moment.',
        {},
        { cause: error, retryable: true },
      );
    }
  }

  // Not transactional: save the intent, send once, record the outcome.
  const intentRecord: HandleRecord = {
    ...newRecord(),
    intent: { tool: plan.tool, idempotencyKey, requestSha256: plan.requestSha256() },
  };
  await store.insert(intentRecord);
  let created: Created;
  try {
    created = await send();
  } catch (error) {
    if (error instanceof NotAppliedFailure) {
      // The request certainly never reached the runtime: nothing exists, so the intent goes and the call may be made again.
      await store.removeIntent(handle, intentRecord.version).catch(() => undefined);
      throw new SessError(
        'SESS_UNAVAILABLE',
        'Sess could not be reached just now; nothing was created. Try again in a moment.',
        {},
        { cause: error, retryable: true },
      );
    }
    const failure = classifyBackendError(error);
    if (failure.kind === 'rejected' || failure.kind === 'configuration' || failure.kind === 'protocol') {
      // Definitively refused: no session exists, so the intent goes with it.
      await store.removeIntent(handle, intentRecord.version).catch(() => undefined);
      if (failure.kind === 'rejected') throw createRejected(failure.error);
      throw failure.error;
    }
    await patchHandle(store, intentRecord, { state: 'create_unknown' }).catch(() => undefined);
    throw createUnknown(handle);
  }
  const o = outcome(created);
  const patch: HandlePatch = {
    state: o.state,
    revision: o.revision,
    expiresAt: o.expiresAt,
    intent: null,
    sealed: { humanUrl: o.humanUrl },
  };
  if (o.sessionId) patch.sessionId = o.sessionId;
  if (o.askId) patch.askId = o.askId;
  let saved: HandleRecord | undefined;
  try {
    saved = await patchHandle(store, intentRecord, patch);
  } catch {
    saved = undefined;
  }
  if (!saved) {
    throw new SessError(
      'CREATED_NOT_SAVED',
      'The form was created, but its handle could not be saved here. Do not repeat the call; the owner can find the form in Sess.',
    );
  }
  return result(created);
}
