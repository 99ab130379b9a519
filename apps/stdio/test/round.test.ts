/*
 * sess-mcp as a host runs it: the workspace bin spawned with the SDK client's stdio transport,
 * against the real app on loopback. A full round (request → answer on the real page → answered
 * and verified → publish → answer → complete), with the server's receipt signing key rotated
 * between the two answers (the second receipt is signed by a key made active after this
 * process's last JWKS fetch, and still verifies), and an Ask that two people answer.
 */
import { users, workspaces } from '@sess/db';
import { rotateSigningKeys } from '@sess/forms';
import {
  answerAskOnPage,
  answerOnPage,
  sampleAskArguments,
  samplePushInteraction,
  sampleSurface,
  signInTestUser,
  TEST_SECRET,
} from '@sess/testkit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, interactionOf, type StdioHarness, startStdioHarness } from './support/stdio-harness.ts';

let h: StdioHarness;

beforeAll(async () => {
  h = await startStdioHarness();
});

afterAll(async () => {
  await h?.close();
});

async function currentKid(): Promise<string | undefined> {
  const body = (await (await fetch(`${h.server.url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> };
  return body.keys[0]?.kid;
}

describe('sess-mcp over stdio against the real app', () => {
  it('lists the same tools as /mcp and answers initialize without a key; a tool call without one is NOT_CONFIGURED', async () => {
    const mcp = await h.spawn(h.env(undefined));
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ['sess_ask', 'sess_cancel', 'sess_complete', 'sess_list', 'sess_publish', 'sess_request', 'sess_response'].sort(),
    );
    const error = errorOf(await mcp.call('sess_list', {}));
    expect(error.code).toBe('NOT_CONFIGURED');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('SESS_API_KEY');
    await mcp.close();
  });

  it('a full round: request, answer, verified, publish, answer under a rotated receipt key, complete', async () => {
    const workspace = await h.workspace();
    const mcp = await h.spawn(h.env(workspace.apiKey));

    const created = interactionOf(await mcp.call('sess_request', { interaction: sampleSurface() }));
    expect(created.state).toBe('waiting');
    expect(created.revision).toBe(1);
    h.link(created.humanUrl!);

    const waiting = interactionOf(await mcp.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }));
    expect(waiting.state).toBe('waiting');

    expect(await answerOnPage(created.humanUrl!, { message: 'Greet users by their first name' }, 'approve')).toBe(303);
    const answered = interactionOf(await mcp.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 5000 }));
    expect(answered.state).toBe('answered');
    expect(answered.response).toMatchObject({
      verified: true,
      actionId: 'approve',
      values: { message: 'Greet users by their first name' },
      // Over /v1 too, the way and the level come from the verified receipt: answered on the page, by the link.
      via: 'link',
      assurance: 'link',
    });

    // `sess keys rotate` on the server: this process fetched the key set to verify the first answer.
    const before = await currentKid();
    const rotated = await rotateSigningKeys(h.server.database.db, { secret: TEST_SECRET, now: new Date() });
    expect(rotated.previousKid).toBe(before);
    await expect.poll(currentKid, { timeout: 5_000, interval: 20 }).toBe(rotated.kid);

    const published = interactionOf(
      await mcp.call('sess_publish', {
        handle: created.handle,
        expected_revision: 1,
        response_event_id: answered.response!.eventId,
        interaction: samplePushInteraction(),
      }),
    );
    expect(published).toMatchObject({ state: 'waiting', revision: 2 });

    expect(await answerOnPage(created.humanUrl!, {}, 'push')).toBe(303);
    const second = interactionOf(await mcp.call('sess_response', { handle: created.handle, revision: 2, wait_ms: 5000 }));
    expect(second.state).toBe('answered');
    expect(second.response).toMatchObject({ verified: true, actionId: 'push' });

    const completed = interactionOf(
      await mcp.call('sess_complete', {
        handle: created.handle,
        expected_revision: 2,
        response_event_id: second.response!.eventId,
      }),
    );
    expect(completed.state).toBe('completed');

    const listed = (await mcp.call('sess_list', { status: 'completed' })).structured as {
      interactions: Array<{ handle: string }>;
    };
    expect(listed.interactions.map((i) => i.handle)).toContain(created.handle);
    await mcp.close();
    expect(h.stderrLeaks()).toEqual([]);
  });

  it("the workspace's floor beats the agent's link: its own fetch gets the sign-in page, the owner signed in answers as account", async () => {
    const workspace = await h.workspace();
    const { db } = h.server.database;
    await db.update(workspaces).set({ apiKeyAssuranceFloor: 'account' }).where(eq(workspaces.id, workspace.workspaceId));
    const mcp = await h.spawn(h.env(workspace.apiKey));
    const created = interactionOf(await mcp.call('sess_request', { interaction: sampleSurface(), assurance: 'link' }));
    expect(created.assurance).toBe('account');
    h.link(created.humanUrl!);

    // The agent fetching its own link (no browser session): the sign-in page, and nothing answered.
    const fetched = await fetch(created.humanUrl!, { redirect: 'manual' });
    expect(fetched.status).toBe(303);
    expect(fetched.headers.get('location')).toMatch(/^\/signin\?return_to=/);
    const waiting = interactionOf(await mcp.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 0 }));
    expect(waiting.state).toBe('waiting');

    const { cookie } = await signInTestUser(db, workspace.userId);
    expect(await answerOnPage(created.humanUrl!, { message: 'Ship it' }, 'approve', cookie)).toBe(303);
    const answered = interactionOf(await mcp.call('sess_response', { handle: created.handle, revision: 1, wait_ms: 5000 }));
    expect(answered.response).toMatchObject({ verified: true, actionId: 'approve', assurance: 'account' });
    expect(answered.response!.respondent).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The workspace's own key is told who, by e-mail (Sess's records; the receipt signs only the opaque id).
    const [owner] = await db.select({ email: users.email }).from(users).where(eq(users.id, workspace.userId));
    expect(answered.response!.respondentEmail).toBe(owner!.email);
    await db.update(workspaces).set({ apiKeyAssuranceFloor: 'link' }).where(eq(workspaces.id, workspace.workspaceId));
    await mcp.close();
    expect(h.stderrLeaks()).toEqual([]);
  });

  it('an Ask: two people answer one link and sess_response shows both, verified', async () => {
    const workspace = await h.workspace();
    const mcp = await h.spawn(h.env(workspace.apiKey));
    const created = interactionOf(await mcp.call('sess_ask', sampleAskArguments({ max: 2 })));
    expect(created.state).toBe('waiting');
    expect(created.ask).toMatchObject({ open: true, counts: { started: 0, answered: 0, max: 2 } });
    h.link(created.humanUrl!);

    expect(await answerAskOnPage(created.humanUrl!, { place: 'Beach' })).toBe(303);
    expect(await answerAskOnPage(created.humanUrl!, { place: 'City' })).toBe(303);

    const read = interactionOf(await mcp.call('sess_response', { handle: created.handle, revision: 1 }));
    const ask = read.ask as { counts: Record<string, number>; answers: Array<{ verified: boolean; values: { place: string } }> };
    expect(ask.counts).toMatchObject({ started: 2, answered: 2, max: 2 });
    expect(ask.answers.every((answer) => answer.verified)).toBe(true);
    expect(ask.answers.map((answer) => answer.values.place).sort()).toEqual(['Beach', 'City']);
    await mcp.close();
    expect(h.stderrLeaks()).toEqual([]);
  });

  it('an Ask that decides: "any", the first Reject decides; sess_response says so, and a late answer is refused', async () => {
    const workspace = await h.workspace();
    const mcp = await h.spawn(h.env(workspace.apiKey));
    const args = {
      question: 'Ship the release?',
      fields: [{ name: 'note', label: 'Anything to add?', type: 'text', required: false }],
      respondents: { max: 3, decide: 'any' },
    };
    const created = interactionOf(await mcp.call('sess_ask', args));
    h.link(created.humanUrl!);
    expect(await answerAskOnPage(created.humanUrl!, { note: 'Not on a Friday' }, 'reject')).toBe(303);
    // Decided: the shared link says so and offers no Start.
    const landing = await (await fetch(created.humanUrl!)).text();
    expect(landing).toContain('This was decided: rejected.');
    expect(landing).not.toContain('/start');

    const read = await mcp.call('sess_response', { handle: created.handle, revision: 1 });
    const ask = interactionOf(read).ask as {
      open: boolean;
      decision: { outcome: string; rejected: number };
      answers: Array<{ verified: boolean; actionId: string }>;
    };
    expect(ask).toMatchObject({ open: false, decision: { outcome: 'rejected', rejected: 1, approved: 0 } });
    expect(ask.answers.map((a) => [a.actionId, a.verified])).toEqual([['reject', true]]);
    expect(read.text.split('\n')[0]).toBe(
      'Decided: rejected (0 approved, 1 rejected). Do not carry on with it; tell the person it was rejected.',
    );
    await mcp.close();
    expect(h.stderrLeaks()).toEqual([]);
  });
});
