import {
  SessCancelInputSchema,
  SessCompleteInputSchema,
  type SessionView,
  SessPublishInputSchema,
  type WithdrawnSession,
} from '@sess/contract';
import { newSecret, SessError, sha256CanonicalJson } from '@sess/core';
import { hashSurface, parseArguments, parseSurface, type Surface } from '@sess/surface';
import { z } from 'zod';
import { backendContext, type ToolCall } from '../call.ts';
import type { HandlePatch, HandleRecord, SavedMutation } from '../ports/handle-store.ts';
import { NotAppliedFailure } from '../ports/sess-backend.ts';
import type { InteractionResult } from '../results.ts';
import { blockedError, classifyBackendError, loadHandle, patchHandle, updateOrConflict } from './handles.ts';

interface MutationArgs {
  handle: string;
  expected_revision: number;
  response_event_id: string;
  interaction?: unknown;
}

/**
 * sess_publish's arguments as the contract has them, with the interaction left to @sess/surface's
 * parser, which measures lengths in code points and words the seed's errors.
 */
const PUBLISH_ENVELOPE = SessPublishInputSchema.extend({ interaction: z.unknown() });

type Kind = SavedMutation['kind'];

function result(record: HandleRecord, state: InteractionResult['state'], revision = record.revision): InteractionResult {
  const interaction: InteractionResult = { handle: record.handle, revision, state };
  if (record.expiresAt) interaction.expiresAt = record.expiresAt;
  return interaction;
}

function refuseAsk(kind: Kind): SessError {
  return new SessError(
    'INVALID_STATE',
    `sess_${kind} does not apply to an Ask: each person's page completes by itself. Read the answers with sess_response.`,
  );
}

/**
 * Dispatches a saved mutation (first time or identical repeat) and records what happened. `first`:
 * this call saved the request just now, so no earlier attempt of it can have landed.
 */
async function dispatch(call: ToolCall, record: HandleRecord, pending: SavedMutation, first = false): Promise<InteractionResult> {
  const backend = call.deps.backend!;
  const ctx = backendContext(call.scope);
  const sessionId = (record.kind === 'ask' ? record.askId : record.sessionId)!;
  let view: SessionView | WithdrawnSession;
  try {
    if (pending.kind === 'publish') {
      view = await backend.publish(ctx, {
        sessionId,
        expectedRevision: pending.expectedRevision,
        responseEventId: pending.responseEventId!,
        surface: pending.surface as Surface,
        idempotencyKey: pending.idempotencyKey,
        ...(record.humanUrl ? { humanUrl: record.humanUrl } : {}),
      });
    } else if (pending.kind === 'complete') {
      view = await backend.complete(ctx, {
        sessionId,
        expectedRevision: pending.expectedRevision,
        responseEventId: pending.responseEventId!,
        idempotencyKey: pending.idempotencyKey,
      });
    } else {
      view = await backend.withdraw(ctx, { sessionId, idempotencyKey: pending.idempotencyKey });
    }
  } catch (error) {
    if (first && error instanceof NotAppliedFailure) {
      // Not applied, never sent before: take the saved request back and the handle is as it was.
      const restored = await patchHandle(call.scope.store, record, { pending: null }).catch(() => undefined);
      if (restored) {
        throw new SessError(
          'SESS_UNAVAILABLE',
          `Sess did not take the ${pending.kind} just now (it could not be reached, or was too busy); nothing changed. Try again in a moment.`,
          {},
          { cause: error, retryable: true },
        );
      }
    }
    const failure = classifyBackendError(error);
    if (failure.kind === 'configuration' && failure.error.details.reason !== 'not_sent') {
      // Sess turned the credential away: nothing was applied, the saved request stays, and the
      // identical call replays it once the owner has fixed the key (the seed: change nothing).
      throw new SessError('NOT_CONFIGURED', `${failure.error.message} The ${pending.kind} was not applied.`, {
        reason: 'credential_refused',
      });
    }
    // A definitive refusal, or one the client's own checks made before sending (seed: not_sent
    // with kind configuration), blocks the handle.
    if (failure.kind === 'rejected' || failure.kind === 'configuration') {
      // A definitive refusal of a saved request: the handle needs the owner (the request stays as evidence).
      await patchHandle(call.scope.store, record, { state: 'blocked', blockedReason: 'mutation_rejected' }).catch(
        () => undefined,
      );
      throw new SessError(
        'MUTATION_REJECTED',
        `Sess refused this ${pending.kind} (${failure.error.code}): ${failure.error.message} The interaction is blocked: the person can review it in their Sess account, under Interactions to review.`,
        { reason: failure.error.code },
      );
    }
    throw new SessError(
      'OUTCOME_UNKNOWN',
      `It is not known whether the ${pending.kind} went through. Repeat exactly the same call to find out; nothing else will be sent.`,
    );
  }

  const expectedRevision = pending.kind === 'publish' ? pending.expectedRevision + 1 : pending.expectedRevision;
  // A publish leaves the new revision waiting for its answer (a lapsed link too: the person may still extend it).
  const expectedState = pending.kind === 'publish' ? 'waiting' : pending.kind === 'complete' ? 'completed' : 'withdrawn';
  const stateFits = view.state === expectedState;
  if (view.sessionId !== sessionId || (pending.kind !== 'cancel' && (view.revision !== expectedRevision || !stateFits))) {
    throw new SessError(
      'SESS_PROTOCOL_ERROR',
      `Sess answered the ${pending.kind} inconsistently. Nothing was released; repeat exactly the same call.`,
    );
  }
  const confirmed = { ...pending, resultRevision: view.revision };
  let patch: HandlePatch;
  if (pending.kind === 'publish') {
    patch = {
      state: 'waiting',
      revision: view.revision,
      surfaceSha256: pending.surfaceSha256!,
      expiresAt: (view as SessionView).expiresAt,
      pending: null,
      confirmed,
      sealed: record.humanUrl ? { humanUrl: record.humanUrl } : null,
    };
  } else {
    // Finished: the link and the answer data leave this record.
    patch = { state: pending.kind === 'complete' ? 'completed' : 'cancelled', pending: null, confirmed, sealed: null };
  }
  const saved = await updateOrConflict(call.scope.store, record, patch);
  return result(saved, pending.kind === 'publish' ? 'waiting' : pending.kind === 'complete' ? 'completed' : 'cancelled');
}

/**
 * sess_publish and sess_complete: the exact request (body, If-Match revision, idempotency key) is
 * saved before it is sent. A lost outcome is reconciled by repeating the identical call, which
 * sends the saved request again; a repeat of a confirmed request succeeds only when identical.
 */
async function mutate(call: ToolCall, kind: 'publish' | 'complete', rawArgs: unknown): Promise<InteractionResult> {
  const args: MutationArgs = parseArguments(kind === 'publish' ? PUBLISH_ENVELOPE : SessCompleteInputSchema, rawArgs);
  const surface = kind === 'publish' ? parseSurface(args.interaction, '/interaction') : undefined;
  if (!call.deps.backend) throw new SessError('NOT_CONFIGURED', 'Sess is not configured to change forms here.');
  const record = await loadHandle(call.scope, args.handle);
  if (record.kind === 'ask') throw refuseAsk(kind);
  if (record.state === 'create_intent' || record.state === 'create_unknown' || record.state === 'blocked') {
    throw blockedError(record);
  }
  const requestSha256 = sha256CanonicalJson({
    kind,
    expected_revision: args.expected_revision,
    response_event_id: args.response_event_id,
    ...(surface ? { interaction: surface } : {}),
  });

  if (record.pending) {
    if (record.pending.requestSha256 === requestSha256) return dispatch(call, record, record.pending);
    throw new SessError(
      'PENDING_MUTATION_DIFFERS',
      `A different ${record.pending.kind} of this interaction is still unconfirmed. Repeat that exact call first; nothing was sent.`,
    );
  }
  if (record.confirmed && record.confirmed.kind === kind && record.confirmed.requestSha256 === requestSha256) {
    // A repeat of a request that already went through: the same result, no request.
    if (kind === 'complete' && record.state === 'completed') return result(record, 'completed');
    if (kind === 'publish' && record.revision === record.confirmed.resultRevision) {
      return result(record, 'waiting', record.confirmed.resultRevision);
    }
  }
  if (record.state === 'completed' || record.state === 'expired' || record.state === 'cancelled' || record.state === 'closed') {
    throw new SessError('INVALID_STATE', `This interaction is ${record.state}; it takes no further steps.`);
  }
  if (args.expected_revision !== record.revision) {
    throw new SessError(
      'REVISION_MISMATCH',
      `This interaction is at revision ${record.revision}, not ${args.expected_revision}. Nothing was sent.`,
      { currentRevision: record.revision },
    );
  }
  if (record.state !== 'answered' || !record.response) {
    throw new SessError(
      'INVALID_STATE',
      `There is no verified answer for revision ${record.revision} yet. Call sess_response until it returns state "answered".`,
    );
  }
  if (record.response.eventId !== args.response_event_id) {
    throw new SessError(
      'RESPONSE_MISMATCH',
      `response_event_id is not the verified answer of revision ${record.revision}; use response.eventId from sess_response. Nothing was sent.`,
      { field: '/response_event_id' },
    );
  }
  const pending: SavedMutation = {
    kind,
    expectedRevision: args.expected_revision,
    responseEventId: args.response_event_id,
    requestSha256,
    idempotencyKey: newSecret(18),
  };
  if (surface) {
    pending.surface = surface;
    pending.surfaceSha256 = hashSurface(surface);
  }
  const saved = await updateOrConflict(call.scope.store, record, { pending });
  return dispatch(call, saved, pending, true);
}

export function publishInteraction(call: ToolCall, args: unknown): Promise<InteractionResult> {
  return mutate(call, 'publish', args);
}

export function completeInteraction(call: ToolCall, args: unknown): Promise<InteractionResult> {
  return mutate(call, 'complete', args);
}

/**
 * sess_cancel: withdraws the session of an interaction the agent no longer needs. Idempotent: a
 * cancelled handle stays cancelled, and a lost outcome is reconciled by repeating the call (the
 * saved withdraw is sent again with its idempotency key).
 */
export async function cancelInteraction(call: ToolCall, rawArgs: unknown): Promise<InteractionResult> {
  const args = parseArguments(SessCancelInputSchema, rawArgs);
  if (!call.deps.backend) throw new SessError('NOT_CONFIGURED', 'Sess is not configured to change forms here.');
  const record = await loadHandle(call.scope, args.handle);
  if (record.state === 'cancelled') return result(record, 'cancelled');
  if (record.state === 'create_intent' || record.state === 'create_unknown' || record.state === 'blocked') {
    throw blockedError(record);
  }
  if (record.pending) {
    if (record.pending.kind === 'cancel') return dispatch(call, record, record.pending);
    throw new SessError(
      'MUTATION_PENDING',
      `A ${record.pending.kind} of this interaction is still unconfirmed. Repeat exactly that sess_${record.pending.kind} call first.`,
    );
  }
  if (record.state === 'completed' || record.state === 'expired' || record.state === 'closed') {
    throw new SessError('INVALID_STATE', `This interaction is already ${record.state}; there is nothing to withdraw.`);
  }
  const pending: SavedMutation = {
    kind: 'cancel',
    expectedRevision: record.revision,
    requestSha256: sha256CanonicalJson({ kind: 'cancel', handle: record.handle }),
    idempotencyKey: newSecret(18),
  };
  const saved = await updateOrConflict(call.scope.store, record, { pending });
  return dispatch(call, saved, pending, true);
}
