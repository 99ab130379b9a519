import { type AskView, type SessionView, SessResponseInputSchema } from '@sess/contract';
import { isSessError, SessError } from '@sess/core';
import { parseArguments } from '@sess/surface';
import { backendContext, type ToolCall } from '../call.ts';
import type { HandleRecord, SavedResponse } from '../ports/handle-store.ts';
import type { InWorkspace } from '../ports/sess-backend.ts';
import type { AskResult, InteractionResult, ResponseResult } from '../results.ts';
import {
  blockedError,
  classifyBackendError,
  loadHandle,
  patchHandle,
  protocolError,
  readFailure,
  updateOrConflict,
} from './handles.ts';
import { verifyAnswer } from './verify-answer.ts';
import { verifyAskDecision } from './verify-decision.ts';

interface ResponseArgs {
  handle: string;
  revision: number;
  wait_ms?: number;
}

function base(record: HandleRecord, state: InteractionResult['state']): InteractionResult {
  const interaction: InteractionResult = { handle: record.handle, revision: record.revision, state };
  if (record.expiresAt) interaction.expiresAt = record.expiresAt;
  return interaction;
}

function released(saved: SavedResponse): ResponseResult {
  return {
    eventId: saved.eventId,
    actionId: saved.actionId,
    values: saved.values,
    verified: true,
    actorAssurance: 'link_holder',
    answeredAt: saved.answeredAt,
    receipt: saved.receipt,
    via: saved.via ?? 'link',
    ...(saved.viaPrincipalId !== undefined ? { viaPrincipalId: saved.viaPrincipalId } : {}),
    assurance: saved.assurance ?? 'link',
    ...(saved.respondent !== undefined ? { respondent: saved.respondent } : {}),
    ...(saved.respondentEmail !== undefined ? { respondentEmail: saved.respondentEmail } : {}),
  };
}

/** Blocks the handle (owner review) and returns the error to throw. */
async function block(call: ToolCall, record: HandleRecord, reason: string, error: SessError): Promise<SessError> {
  await patchHandle(call.scope.store, record, { state: 'blocked', blockedReason: reason }).catch(() => undefined);
  return error;
}

function movedOn(): SessError {
  return new SessError(
    'RECOVERY_BLOCKED',
    'The form moved on in Sess after this answer, so the answer is not released. The person can review it in their Sess account, under Interactions to review; start a new interaction if needed.',
    { reason: 'moved_on' },
  );
}

/** One read of the session, checked; a promise chain, not an async frame kept while a wait is parked. */
function read(call: ToolCall, record: HandleRecord, waitMs: number, signal?: AbortSignal): Promise<SessionView> {
  const backend = call.deps.backend!;
  const input: Parameters<typeof backend.readSession>[1] = { sessionId: record.sessionId!, revision: record.revision, waitMs };
  if (signal) input.signal = signal;
  let reading: Promise<InWorkspace<SessionView>>;
  try {
    reading = backend.readSession(backendContext(call.scope), input);
  } catch (error) {
    // As an async function would: a read that throws at once is a rejected read.
    return Promise.reject(error);
  }
  return reading.then((view) => checkedView(call, record, view));
}

function checkedView(call: ToolCall, record: HandleRecord, view: InWorkspace<SessionView>): SessionView {
  if (view.sessionId !== record.sessionId || view.workspaceId !== call.scope.binding.workspaceId) {
    throw protocolError('a read returned another session');
  }
  if (!Number.isSafeInteger(view.revision) || view.revision < record.revision) throw protocolError('the revision went backwards');
  // The answer in a view is the answer of the revision asked about (ours), whatever the current one is.
  if (view.response && view.response.revision !== record.revision) throw protocolError('an answer of another revision');
  return view;
}

/**
 * The one more authenticated read: whether the session is still at this revision with this very
 * answer, answered or completed (false: it moved on, expired or was withdrawn; a link that lapsed
 * but may still be extended reads as answered). A failed read throws `SESS_UNAVAILABLE`.
 */
async function stillCurrent(call: ToolCall, record: HandleRecord, eventId: string): Promise<boolean> {
  let view: SessionView;
  try {
    view = await read(call, record, 0);
  } catch (error) {
    if (isSessError(error) && error.code === 'SESS_PROTOCOL_ERROR') throw error;
    const failure = classifyBackendError(error);
    throw failure.kind === 'aborted' ? readFailure({ kind: 'unknown', cause: error }) : readFailure(failure);
  }
  const sameAnswer = view.revision === record.revision && view.response?.eventId === eventId;
  return sameAnswer && view.state !== 'expired' && view.state !== 'withdrawn';
}

/**
 * Starts the confirming read now and returns the step that acts on it: resolves when the answer
 * is still current; a failed read changes nothing (`SESS_UNAVAILABLE`); a session that moved on
 * blocks the handle (`RECOVERY_BLOCKED`). Started before the receipt is verified, the read runs
 * while the CPU checks the signature; it is still a second read, issued after the one that
 * brought the answer, and nothing is saved or released until both have settled. Its outcome is
 * held as a value, so an early failure is never an unhandled rejection.
 */
function startConfirming(call: ToolCall, record: HandleRecord, eventId: string): () => Promise<void> {
  const outcome = stillCurrent(call, record, eventId).then(
    (current) => ({ current }),
    (error: unknown) => ({ error }),
  );
  return async () => {
    const settled = await outcome;
    if ('error' in settled) throw settled.error;
    if (!settled.current) throw await block(call, record, 'moved_on', movedOn());
  };
}

/** The confirming read, awaited at once (an answer saved earlier, re-confirmed before its release). */
function confirmStillCurrent(call: ToolCall, record: HandleRecord, eventId: string): Promise<void> {
  return startConfirming(call, record, eventId)();
}

async function readAskOnce(call: ToolCall, record: HandleRecord): Promise<InteractionResult> {
  const backend = call.deps.backend!;
  let view: InWorkspace<AskView>;
  try {
    view = await backend.readAsk(backendContext(call.scope), { askId: record.askId! });
  } catch (error) {
    const failure = classifyBackendError(error);
    throw readFailure(failure.kind === 'aborted' ? { kind: 'unknown', cause: error } : failure);
  }
  if (view.askId !== record.askId || view.workspaceId !== call.scope.binding.workspaceId) {
    throw protocolError('a read returned another Ask');
  }
  const answers: NonNullable<AskResult['answers']> = [];
  for (const answer of view.answers) {
    const respondentId = answer.respondentId;
    if (!respondentId) throw protocolError('an Ask answer without its respondent');
    try {
      const verified = await verifyAnswer(call.deps, answer, {
        workspaceId: call.scope.binding.workspaceId,
        sessionId: record.askId!,
        revision: 1,
        surfaceSha256: record.surfaceSha256!,
        respondentId,
      });
      answers.push({
        ...verified,
        respondentId,
        ...(typeof answer.respondentName === 'string' ? { name: answer.respondentName } : {}),
      });
    } catch (error) {
      if (isSessError(error) && error.code === 'VERIFICATION_FAILED')
        throw await block(call, record, 'verification_failed', error);
      throw error;
    }
  }
  // Withdrawn or closed: no more answers come (the tools have one word for both).
  const closed = view.state !== 'waiting';
  if (closed && record.state !== 'closed') {
    await patchHandle(call.scope.store, record, { state: 'closed', sealed: null, expiresAt: view.expiresAt }).catch(
      () => undefined,
    );
  }
  const interaction = base(record, closed ? 'closed' : 'waiting');
  interaction.expiresAt = view.expiresAt;
  interaction.ask = { id: view.askId, open: !closed, counts: view.counts, answers };
  if (view.decision) {
    try {
      interaction.ask.decision = await verifyAskDecision(call.deps, view.decision, answers, {
        workspaceId: call.scope.binding.workspaceId,
        askId: record.askId!,
      });
    } catch (error) {
      if (isSessError(error) && error.code === 'VERIFICATION_FAILED')
        throw await block(call, record, 'verification_failed', error);
      throw error;
    }
  }
  if (view.escalation) interaction.ask.escalation = view.escalation;
  return interaction;
}

/**
 * sess_response: a bounded wait for the answer to exactly this revision. An answer is released
 * only after its receipt verified for this session, revision, event, Surface and workspace and
 * one more read confirmed the session is still there; a saved answer is re-confirmed the same
 * way on every call. An Ask is read once, without waiting.
 */
export async function readResponse(call: ToolCall, rawArgs: unknown): Promise<InteractionResult> {
  const args: ResponseArgs = parseArguments(SessResponseInputSchema, rawArgs);
  if (!call.deps.backend) throw new SessError('NOT_CONFIGURED', 'Sess is not configured to read answers here.');
  const record = await loadHandle(call.scope, args.handle);

  switch (record.state) {
    case 'create_intent':
    case 'create_unknown':
    case 'blocked':
      throw blockedError(record);
    case 'cancelled':
    case 'expired':
      if (args.revision !== record.revision) break;
      return base(record, record.state);
    case 'completed':
      if (args.revision !== record.revision) break;
      return base(record, 'completed');
    default:
      break;
  }
  if (record.pending) {
    throw new SessError(
      'MUTATION_PENDING',
      `A ${record.pending.kind} of this interaction is still unconfirmed. Repeat exactly the same sess_${record.pending.kind} call first.`,
    );
  }
  if (args.revision !== record.revision) {
    throw new SessError(
      'REVISION_MISMATCH',
      `This interaction is at revision ${record.revision}, not ${args.revision}. Call sess_response with revision ${record.revision}.`,
      { currentRevision: record.revision },
    );
  }
  if (record.kind === 'ask') return readAskOnce(call, record);

  if (record.state === 'answered' && record.response) {
    await confirmStillCurrent(call, record, record.response.eventId);
    const interaction = base(record, 'answered');
    interaction.response = released(record.response);
    return interaction;
  }

  const waitMs = Math.min(args.wait_ms ?? call.deps.maxWaitMs, call.deps.maxWaitMs);
  // Returned, not awaited: while the read is parked, this frame has already ended.
  return read(call, record, waitMs, call.signal).then(
    (view) => actOnRead(call, record, view),
    (error: unknown) => {
      if (isSessError(error) && error.code === 'SESS_PROTOCOL_ERROR') throw error;
      const failure = classifyBackendError(error, call.signal);
      if (failure.kind === 'aborted') return base(record, 'needs_resume');
      throw readFailure(failure);
    },
  );
}

/** What the waiting read brought: an answer released after its checks, an end state, or still waiting. */
async function actOnRead(call: ToolCall, record: HandleRecord, view: SessionView): Promise<InteractionResult> {
  if (view.revision > record.revision) throw await block(call, record, 'moved_on', movedOn());

  if (view.response) {
    const confirmed = startConfirming(call, record, view.response.eventId);
    let response: ResponseResult;
    try {
      response = await verifyAnswer(call.deps, view.response, {
        workspaceId: call.scope.binding.workspaceId,
        sessionId: record.sessionId!,
        revision: record.revision,
        surfaceSha256: record.surfaceSha256!,
        respondentId: null,
      });
    } catch (error) {
      if (isSessError(error) && error.code === 'VERIFICATION_FAILED')
        throw await block(call, record, 'verification_failed', error);
      throw error;
    }
    // The receipt verified, so its event id is the answer's; a verification failure above wins over the read.
    await confirmed();
    const saved: SavedResponse = {
      eventId: response.eventId,
      revision: record.revision,
      actionId: response.actionId,
      values: response.values,
      receipt: response.receipt,
      answeredAt: response.answeredAt,
      via: response.via,
      ...(response.viaPrincipalId !== undefined ? { viaPrincipalId: response.viaPrincipalId } : {}),
      assurance: response.assurance,
      ...(response.respondent !== undefined ? { respondent: response.respondent } : {}),
      ...(response.respondentEmail !== undefined ? { respondentEmail: response.respondentEmail } : {}),
    };
    const patch = {
      state: 'answered' as const,
      sealed: { response: saved, ...(record.humanUrl ? { humanUrl: record.humanUrl } : {}) },
    };
    const updated = await patchHandle(call.scope.store, record, patch);
    if (!updated) {
      // Another call got there first; release only if it saved this very answer.
      const now = await loadHandle(call.scope, record.handle);
      if (now.state !== 'answered' || now.response?.eventId !== saved.eventId) {
        throw new SessError(
          'INVALID_STATE',
          'Another call changed this interaction at the same moment. Call sess_response again.',
        );
      }
    }
    const interaction = base(record, 'answered');
    interaction.response = response;
    return interaction;
  }

  switch (view.state) {
    case 'expired': {
      await updateOrConflict(call.scope.store, record, { state: 'expired', sealed: null, expiresAt: view.expiresAt });
      const interaction = base(record, 'expired');
      interaction.expiresAt = view.expiresAt;
      return interaction;
    }
    case 'withdrawn':
      await updateOrConflict(call.scope.store, record, { state: 'cancelled', sealed: null });
      return base(record, 'cancelled');
    case 'completed':
      throw protocolError('completed without an answer');
    default: {
      const interaction = base(record, call.signal.aborted ? 'needs_resume' : 'waiting');
      interaction.expiresAt = view.expiresAt;
      return interaction;
    }
  }
}
