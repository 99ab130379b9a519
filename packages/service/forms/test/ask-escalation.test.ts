/*
 * An Ask's backup people (`respondents.escalate`): named people are asked first; from the
 * escalation on, the backups may start a page too and answer in the place of a named person who
 * has not, under the same rule; a named person's late answer then meets "Already decided".
 * Time comes from an injected clock.
 */

import { newId } from '@sess/core';
import {
  createAsk,
  type FormsRuntime,
  openLink,
  readAsk,
  startRespondent,
  submitLinkAnswer,
  type WorkspaceContext,
} from '@sess/forms';
import { escalationText } from '@sess/surface';
import {
  createTestClock,
  createTestDatabase,
  createTestFormsRuntime,
  createUser,
  createWorkspace,
  type TestClock,
  type TestDatabase,
  tokenOf,
} from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from '../src/test-helpers.ts';

const HOUR = 3600;
let database: TestDatabase;
let clock: TestClock;
let runtime: FormsRuntime;
let ctx: WorkspaceContext;
type Member = { userId: string; email: string };
let ana: Member;
let bo: Member;
let ben: Member;
let outsider: Member;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = createTestClock();
  runtime = createTestFormsRuntime(database, { now: clock.now });
  const { workspaceId } = await createWorkspace(database.db, { plan: 'pro' });
  ctx = { runtime, workspaceId, madeBy: { kind: 'api_key' } };
  const member = () => createUser(database.db, { workspaceId, email: `m-${newId('user')}@example.com` });
  [ana, bo, ben] = await Promise.all([member(), member(), member()]);
  outsider = await createUser(database.db, { workspaceId: (await createWorkspace(database.db)).workspaceId });
});
afterAll(async () => {
  await runtime.close();
  await database.destroy();
});

function escalatingArguments(respondents: Record<string, unknown>) {
  return {
    question: 'Ship the release?',
    fields: [{ name: 'note', label: 'Anything to add?', type: 'text', required: false }],
    respondents,
  };
}

async function escalatingAsk(respondents: Record<string, unknown>) {
  const created = await createAsk({ ctx, input: escalatingArguments(respondents) });
  return { ...created, token: tokenOf(created.humanUrl) };
}

const press = (page: string, person: Member, actionId: 'approve' | 'reject') =>
  submitLinkAnswer(runtime, page, { revision: 1, actionId, submitted: {} }, { via: 'link', userId: person.userId });

describe('an Ask with backup people', () => {
  it('asks the backup only from the escalation; their answer counts; the named person late gets "Already decided"', async () => {
    const created = await escalatingAsk({
      people: [ana.email, bo.email],
      decide: 'all',
      escalate: { after: HOUR, to: [ben.email] },
      expires_in: 24 * HOUR,
    });
    const at = new Date(clock.now().getTime() + HOUR * 1000).toISOString();
    expect(created.ask).toMatchObject({ max: 2, decide: 'all', escalateAt: at, backups: 1 });
    const view = await openLink(runtime, created.token);
    expect(view.surface.source.components).toContainEqual({ type: 'text', text: escalationText(HOUR, 1) });
    expect(escalationText(HOUR, 1)).toBe(
      'If this is still open 1 hour after it was sent, a backup person is asked too, and may answer in place of anyone who has not.',
    );
    expect(await readAsk({ ctx, askId: created.askId })).toMatchObject({ escalation: { at, backups: 1, escalated: false } });

    // Before the escalation the backup is not one of the people asked.
    expect(await refusal(startRespondent(runtime, created.token, ben.userId))).toMatchObject({ code: 'FORM_FOR_SOMEONE_ELSE' });
    const anaPage = (await startRespondent(runtime, created.token, ana.userId)).respondentToken;
    await press(anaPage, ana, 'approve');

    clock.advance(HOUR * 1000 - 1);
    expect(await refusal(startRespondent(runtime, created.token, ben.userId))).toMatchObject({ code: 'FORM_FOR_SOMEONE_ELSE' });
    clock.advance(1);
    expect(await readAsk({ ctx, askId: created.askId })).toMatchObject({ escalation: { escalated: true } });
    // Bo has not answered: Ben takes the place and approves, and that is "all" of the 2 places.
    const benPage = (await startRespondent(runtime, created.token, ben.userId)).respondentToken;
    // A backup's page is theirs alone, as a named person's.
    expect(await refusal(press(benPage, ana, 'reject'))).toMatchObject({ code: 'FORM_FOR_SOMEONE_ELSE' });
    await press(benPage, ben, 'approve');
    expect((await readAsk({ ctx, askId: created.askId })).decision).toMatchObject({ outcome: 'approved', approved: 2 });

    // Bo, late: nothing more is taken.
    expect(await refusal(startRespondent(runtime, created.token, bo.userId))).toMatchObject({
      code: 'LINK_CLOSED',
      state: 'decided',
      decision: 'approved',
    });
    // Someone who is neither named nor a backup never starts.
    expect(await refusal(startRespondent(runtime, created.token, outsider.userId))).toMatchObject({
      code: 'FORM_FOR_SOMEONE_ELSE',
    });
  });

  it('an idempotent repeat naming the backup in another case is the same request: the same Ask', async () => {
    const key = newId('session');
    const make = (backup: string) =>
      createAsk({
        ctx,
        input: escalatingArguments({ people: [ana.email], escalate: { after: HOUR, to: [backup] } }),
        idempotencyKey: key,
      });
    const first = await make(ben.email);
    expect((await make(ben.email.toUpperCase())).askId).toBe(first.askId);
  });

  it('refuses an escalation without named people, naming a named person, unknown, or not before the end', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ max: 2, escalate: { after: HOUR, to: [ben.email] } }, '/respondents/escalate'],
      [{ people: [ana.email], escalate: { after: HOUR, to: [ana.email.toUpperCase()] } }, '/respondents/escalate/to/0'],
      [{ people: [ana.email], escalate: { after: HOUR, to: [ben.email, ben.email] } }, '/respondents/escalate/to/1'],
      [{ people: [ana.email], escalate: { after: HOUR, to: [outsider.email] } }, '/respondents/escalate/to/0'],
      [{ people: [ana.email], escalate: { after: HOUR, to: [ben.email] }, expires_in: HOUR }, '/respondents/escalate/after'],
      [{ people: [ana.email], escalate: { after: 10, to: [ben.email] } }, '/respondents/escalate/after'],
      [{ people: [ana.email], escalate: { after: HOUR } }, '/respondents/escalate/to'],
    ];
    for (const [respondents, field] of cases) {
      expect(
        await refusal(createAsk({ ctx, input: escalatingArguments(respondents) })),
        JSON.stringify(respondents),
      ).toMatchObject({
        code: 'INVALID_ARGUMENTS',
        field,
      });
    }
  });
});
