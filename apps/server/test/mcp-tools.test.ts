import { REWAIT_LINE } from '@sess/contract';
import { submitLinkAnswer } from '@sess/forms';
import { sampleSurface, tokenOf } from '@sess/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type McpHarness, startMcpHarness, structured } from './support/mcp-harness.ts';

type Interaction = {
  handle: string;
  revision: number;
  state: string;
  humanUrl?: string;
  expiresAt?: string;
  response?: { eventId: string; actionId: string; values: Record<string, unknown>; verified: boolean; actorAssurance: string };
  ask?: { id: string; open: boolean; counts: { started: number; answered: number; max: number }; answers?: unknown[] };
};

const ASK = {
  question: 'Where should we go on Saturday?',
  fields: [{ name: 'place', label: 'Where to?', type: 'choice', options: ['Beach', 'Mountains', 'City'] }],
  submit_label: 'Plan it',
};

describe.each(BACKENDS)('on the %s backend', (backend) => {
  let h: McpHarness;
  beforeAll(async () => {
    h = await startMcpHarness({ backend });
  });
  afterAll(async () => {
    await h?.close();
  });

  describe.each(['modern', 'legacy'] as const)('tools over the %s era', (era) => {
    it('lists the seven tools with closed schemas, output schemas and the annotations of the listing', async () => {
      const { token } = await h.addPrincipal();
      const client = await h.connect(token, era);
      if (era === 'modern') expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      else expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'sess_ask',
        'sess_request',
        'sess_response',
        'sess_publish',
        'sess_complete',
        'sess_list',
        'sess_cancel',
      ]);
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(byName.sess_response!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
      expect(byName.sess_complete!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
      expect(byName.sess_publish!.annotations).toMatchObject({ idempotentHint: true, readOnlyHint: false });
      for (const tool of tools) {
        expect(tool.inputSchema.additionalProperties).toBe(false);
        expect(tool.outputSchema).toBeDefined();
      }
      expect(client.getInstructions()).toContain('sess_complete');
    });

    it('sess_ask → answer → answered and verified → sess_complete → completed', async () => {
      const { token } = await h.addPrincipal();
      const client = await h.connect(token, era);
      const created = await client.callTool({ name: 'sess_ask', arguments: ASK });
      expect(created.isError).toBeFalsy();
      const interaction = structured<{ interaction: Interaction }>(created).interaction;
      expect(interaction).toMatchObject({ revision: 1, state: 'waiting' });
      expect(interaction.humanUrl).toMatch(/\/s\//);
      const text = (created.content as Array<{ text: string }>)[0]!.text;
      expect(text.startsWith(`Show the person this link now: ${interaction.humanUrl}\nThen call sess_response.\n\n`)).toBe(true);
      expect(JSON.parse(text.split('\n\n')[1]!)).toEqual(structured(created));

      const waiting = await client.callTool({
        name: 'sess_response',
        arguments: { handle: interaction.handle, revision: 1, wait_ms: 0 },
      });
      expect(structured<{ interaction: Interaction }>(waiting).interaction.state).toBe('waiting');
      expect((waiting.content as Array<{ text: string }>)[0]!.text.startsWith(`${REWAIT_LINE}\n\n`)).toBe(true);

      const accepted = await submitLinkAnswer(h.runtime, tokenOf(interaction.humanUrl!), {
        revision: 1,
        submitted: { place: 'Beach' },
      });
      expect(accepted.ok).toBe(true);

      const answered = await client.callTool({ name: 'sess_response', arguments: { handle: interaction.handle, revision: 1 } });
      const a = structured<{ interaction: Interaction }>(answered).interaction;
      expect(a.state).toBe('answered');
      expect(a.response).toMatchObject({ values: { place: 'Beach' }, verified: true, actorAssurance: 'link_holder' });

      // A saved answer is re-confirmed on every read and released again.
      const again = await client.callTool({ name: 'sess_response', arguments: { handle: interaction.handle, revision: 1 } });
      expect(structured<{ interaction: Interaction }>(again).interaction.response?.eventId).toBe(a.response!.eventId);

      const completed = await client.callTool({
        name: 'sess_complete',
        arguments: { handle: interaction.handle, expected_revision: 1, response_event_id: a.response!.eventId },
      });
      expect(structured<{ interaction: Interaction }>(completed).interaction).toMatchObject({ state: 'completed', revision: 1 });
      // An identical repeat succeeds without a request; the link and answer are gone from the record.
      const repeat = await client.callTool({
        name: 'sess_complete',
        arguments: { handle: interaction.handle, expected_revision: 1, response_event_id: a.response!.eventId },
      });
      expect(structured<{ interaction: Interaction }>(repeat).interaction.state).toBe('completed');
      if (h.kind === 'http') {
        // Over /v1: every write carries an Idempotency-Key; the complete is sent once, with If-Match on the answered revision.
        const writes = h.sent.filter((r) => r.method === 'POST');
        expect(writes.length).toBeGreaterThan(0);
        expect(writes.every((r) => r.idempotencyKey !== undefined)).toBe(true);
        expect(writes.filter((r) => r.path.endsWith('/complete')).every((r) => r.ifMatch !== undefined)).toBe(true);
      }
    });

    it('sess_request → approve → sess_publish → answer → sess_complete', async () => {
      const { token } = await h.addPrincipal();
      const client = await h.connect(token, era);
      const created = await client.callTool({ name: 'sess_request', arguments: { interaction: sampleSurface() } });
      const interaction = structured<{ interaction: Interaction }>(created).interaction;
      const link = tokenOf(interaction.humanUrl!);
      await submitLinkAnswer(h.runtime, link, { revision: 1, actionId: 'approve', submitted: { message: 'Ship it' } });
      const first = structured<{ interaction: Interaction }>(
        await client.callTool({ name: 'sess_response', arguments: { handle: interaction.handle, revision: 1 } }),
      ).interaction;
      expect(first.response).toMatchObject({ actionId: 'approve', values: { message: 'Ship it' }, via: 'link' });
      expect(first.response && 'viaPrincipalId' in first.response).toBe(false);

      const published = await client.callTool({
        name: 'sess_publish',
        arguments: {
          handle: interaction.handle,
          expected_revision: 1,
          response_event_id: first.response!.eventId,
          interaction: sampleSurface('Push it now?'),
        },
      });
      expect(structured<{ interaction: Interaction }>(published).interaction).toMatchObject({ state: 'waiting', revision: 2 });
      // Only sess_response's waiting result has the re-wait line: a publish result is the JSON alone.
      expect(JSON.parse((published.content as Array<{ text: string }>)[0]!.text)).toEqual(structured(published));

      // The next step answered inside the agent's chat: released with the way its verified receipt signs.
      const principalId = 'usr_ffffffffffffffffffffffffff';
      await submitLinkAnswer(h.runtime, link, { revision: 2, actionId: 'stop', submitted: {} }, { via: 'chat', principalId });
      const second = structured<{ interaction: Interaction }>(
        await client.callTool({ name: 'sess_response', arguments: { handle: interaction.handle, revision: 2 } }),
      ).interaction;
      expect(second).toMatchObject({
        state: 'answered',
        revision: 2,
        response: { actionId: 'stop', via: 'chat', viaPrincipalId: principalId },
      });
      const done = await client.callTool({
        name: 'sess_complete',
        arguments: { handle: interaction.handle, expected_revision: 2, response_event_id: second.response!.eventId },
      });
      expect(structured<{ interaction: Interaction }>(done).interaction.state).toBe('completed');
      expect(JSON.parse((done.content as Array<{ text: string }>)[0]!.text)).toEqual(structured(done));
    });
  });
});
