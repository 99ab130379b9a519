import type { Database } from '@sess/db';
import { type CreatedSession, createFormsRuntime, createSession, type FormsRuntime, type WaitClock } from '@sess/forms';
import type { Surface } from '@sess/surface';
import { recordSecret } from '../log-audit/capture.ts';
import { createTestLogger } from '../test-logger.ts';

/**
 * A clock tests move by hand: verbs read it, waits time their deadlines on it (a `WaitClock`),
 * nothing sleeps.
 */
export interface TestClock extends WaitClock {
  now: () => Date;
  /** Moves time forward by `ms` milliseconds, firing the timers that fall due, in order. */
  advance(ms: number): void;
  set(date: Date): void;
  /** The delays of the timers not yet fired, from now, in the order they fall due. */
  pending(): number[];
}

/** A hand-moved clock starting at `start` (default 2030-01-01T00:00:00Z). */
export function createTestClock(start: Date = new Date('2030-01-01T00:00:00.000Z')): TestClock {
  let t = start.getTime();
  const timers = new Set<{ at: number; fire: () => void }>();
  const due = () => [...timers].sort((a, b) => a.at - b.at);
  return {
    now: () => new Date(t),
    monotonicMs: () => t,
    setTimeout(callback, ms, arg) {
      const timer = { at: t + ms, fire: () => callback(arg) };
      timers.add(timer);
      return timer;
    },
    clearTimeout(handle) {
      timers.delete(handle as { at: number; fire: () => void });
    },
    advance(ms) {
      const until = t + ms;
      for (let next = due()[0]; next && next.at <= until; next = due()[0]) {
        timers.delete(next);
        t = next.at;
        next.fire();
      }
      t = until;
    },
    set(date) {
      t = date.getTime();
    },
    pending: () => due().map((timer) => timer.at - t),
  };
}

export const TEST_PUBLIC_URL = 'https://sess.test';
export const TEST_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/** A forms runtime over a test database (silent logger, fixed public URL and secret). */
export function createTestFormsRuntime(
  database: Database,
  options: { now?: () => Date; waitClock?: WaitClock; publicUrl?: string; secret?: string; linkHorizonSeconds?: number } = {},
): FormsRuntime {
  return createFormsRuntime({
    database,
    publicUrl: options.publicUrl ?? TEST_PUBLIC_URL,
    secret: options.secret ?? TEST_SECRET,
    logger: createTestLogger(),
    ...(options.now ? { now: options.now } : {}),
    ...(options.waitClock ? { waitClock: options.waitClock } : {}),
    ...(options.linkHorizonSeconds ? { linkHorizonSeconds: options.linkHorizonSeconds } : {}),
  });
}

/** The seed's sample interaction: a record, an editable commit message, approve / stop. */
export function sampleSurface(title = 'Approve this commit?'): Surface {
  return {
    mode: 'interactive',
    title,
    source: {
      kind: 'sess_surface',
      components: [
        {
          type: 'record',
          label: 'What changed (sample)',
          fields: { 'src/greeting.js': "Greeting now uses the user's first name" },
        },
        {
          type: 'field',
          name: 'message',
          label: 'Commit message',
          multiline: true,
          schema: { type: 'string', minLength: 1, maxLength: 2000 },
          value: 'Greet users by first name',
        },
      ],
    },
    actions: [
      { id: 'approve', label: 'Approve and commit', intent: 'approve' },
      { id: 'stop', label: 'Stop', intent: 'reject' },
    ],
  };
}

/** sess_ask arguments of a small Ask (one choice field) for `max` people. */
export function sampleAskArguments(respondents: {
  max?: number;
  people?: string[];
  name?: boolean;
  expires_in?: number;
  respondent_expires_in?: number;
}) {
  return {
    question: 'Where should we go on Saturday?',
    fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] }],
    submit_label: 'Plan it',
    respondents,
  };
}

/** The link token of a `humanUrl` (`…/s/<token>`). */
export function tokenOf(humanUrl: string): string {
  const token = humanUrl.split('/s/')[1];
  if (!token) throw new Error(`not a link: ${humanUrl}`);
  return token;
}

/** Creates an interaction for tests and returns it with its link token. */
export async function createTestSession(
  runtime: FormsRuntime,
  workspaceId: string,
  options: { surface?: Surface; expiresIn?: number; plan?: string } = {},
): Promise<CreatedSession & { token: string }> {
  const created = await createSession({
    ctx: { runtime, workspaceId, ...(options.plan ? { plan: options.plan } : {}) },
    input: { interaction: options.surface ?? sampleSurface(), ...(options.expiresIn ? { expires_in: options.expiresIn } : {}) },
  });
  recordSecret(created.humanUrl, 'link');
  recordSecret(tokenOf(created.humanUrl), 'link');
  return { ...created, token: tokenOf(created.humanUrl) };
}

/** A follow-up step the agent publishes after the first answer: one yes/no question. */
export function samplePushInteraction() {
  return {
    mode: 'interactive' as const,
    title: 'Push to main now?',
    source: {
      kind: 'sess_surface' as const,
      components: [{ type: 'text' as const, text: 'The commit is ready.' }],
    },
    actions: [
      { id: 'push', label: 'Push', intent: 'approve' as const },
      { id: 'wait', label: 'Not yet', intent: 'reject' as const },
    ],
  };
}
