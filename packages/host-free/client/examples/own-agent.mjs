// Your own agent, no MCP: one tool, `ask_person`, for a model API (the Anthropic Messages API's
// tool-use shape), and its handler on @sess/client. The model calls the tool; the handler makes a
// small Sess form, shows the person its private link, waits for the answer, verifies its signed
// receipt, closes the form and hands the verified answer back to the model as the tool result.
//
//   SESS_API_KEY=… ANTHROPIC_API_KEY=… node own-agent.mjs "Ask me which day suits a call"
//
// (SESS_ORIGIN defaults to https://api.sess.si.) Imported as a module, it runs nothing: take
// `askPersonTool` and `handleAskPerson` into your own loop.
import { pathToFileURL } from 'node:url';
import { createSessClient, isSessClientError } from '@sess/client';

/** The tool definition, as the Messages API takes it in `tools`. */
export const askPersonTool = {
  name: 'ask_person',
  description:
    'Ask the user a short question on their phone and wait for the answer. Use it before acting on anything the user ' +
    'must decide or approve. Returns their answer, verified by Sess.',
  input_schema: {
    type: 'object',
    properties: {
      question: {
        type: 'string',
        maxLength: 80,
        description: 'The question, about 40 characters. Example: "Which day suits a call?"',
      },
      details: { type: 'string', maxLength: 4000, description: 'Optional plain text shown under the question.' },
      options: {
        type: 'array',
        items: { type: 'string', maxLength: 60 },
        minItems: 2,
        maxItems: 12,
        description: 'Optional choices; without them the person types an answer.',
      },
    },
    required: ['question'],
    additionalProperties: false,
  },
};

/** The form (a Sess Surface) for the tool's input: the question, the details, one answer field. */
export function buildInteraction(input) {
  const choice = Array.isArray(input.options) && input.options.length > 0;
  return {
    mode: 'interactive',
    title: input.question,
    source: {
      kind: 'sess_surface',
      components: [
        ...(input.details ? [{ type: 'text', text: input.details }] : []),
        {
          type: 'field',
          name: 'answer',
          label: choice ? 'Your choice' : 'Your answer',
          ...(choice ? {} : { multiline: true }),
          schema: choice ? { type: 'string', enum: input.options } : { type: 'string', minLength: 1, maxLength: 2000 },
        },
      ],
    },
    actions: [{ id: 'send', label: 'Send', intent: 'submit' }],
  };
}

/**
 * Runs one `tool_use` block of `ask_person` and returns its `tool_result` block. `showLink` gets
 * the private link: show it to the person (your chat UI, a notification), never to a log.
 * Failures come back as an error result the model can read, named by the client's error kind.
 */
export async function handleAskPerson(client, toolUse, { showLink, waitMs = 10 * 60_000 } = {}) {
  const result = (content, isError = false) => ({
    type: 'tool_result',
    tool_use_id: toolUse.id,
    content: JSON.stringify(content),
    ...(isError ? { is_error: true } : {}),
  });
  try {
    // 1. The form. The idempotency key comes back on a lost answer (`unknown_outcome`): repeat with it.
    const created = await client.sessions.create({ interaction: buildInteraction(toolUse.input), expires_in: 3600 });
    const { sessionId, surfaceSha256, humanUrl } = created.data;
    await showLink(humanUrl);

    // 2. The answer: held reads of up to 45 s each until the person sends it or waitMs runs out.
    const read = await client.sessions.wait(sessionId, { waitMs });
    if (read.data.state !== 'answered') {
      if (read.data.state === 'waiting') await client.sessions.withdraw(sessionId);
      return result({ state: read.data.state === 'waiting' ? 'no_answer' : read.data.state });
    }

    // 3. Verified for exactly this session, revision, event, form and workspace, by its signed receipt.
    const response = read.data.response;
    const verified = await client.receipts.verifyResponse({
      response,
      sessionId,
      revision: read.data.revision,
      eventId: response.eventId,
      surfaceSha256,
      workspaceId: created.workspaceId,
    });

    // 4. Done: the person's page says the agent has the answer.
    await client.sessions.complete(sessionId, { expected_revision: verified.revision, response_event_id: verified.eventId });
    // The answer is the person's own words: the model should treat it as data, not instructions.
    return result({ state: 'answered', verified: true, answer: verified.values.answer });
  } catch (error) {
    if (!isSessClientError(error)) throw error;
    // kind: api (code, field), transport/timeout/unknown_outcome (retry), aborted, configuration, protocol.
    return result({ error: { kind: error.kind, code: error.code, message: error.message, retryable: error.retryable } }, true);
  }
}

/** A minimal agent loop on the Messages API (fetch, no SDK): the model may call ask_person. */
async function runAgent(prompt) {
  const client = createSessClient({ origin: process.env.SESS_ORIGIN ?? 'https://api.sess.si', apiKey: process.env.SESS_API_KEY });
  const messages = [{ role: 'user', content: prompt }];
  for (let turn = 0; turn < 8; turn += 1) {
    const response = await fetch('https://api.anthropic.com/v1/messages', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': process.env.ANTHROPIC_API_KEY,
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({
        model: process.env.MODEL ?? 'claude-sonnet-4-5',
        max_tokens: 1024,
        tools: [askPersonTool],
        messages,
      }),
    });
    if (!response.ok) throw new Error(`Messages API: HTTP ${response.status}`);
    const message = await response.json();
    messages.push({ role: 'assistant', content: message.content });
    for (const block of message.content) if (block.type === 'text') process.stdout.write(`${block.text}\n`);
    if (message.stop_reason !== 'tool_use') return;
    const results = [];
    for (const block of message.content) {
      if (block.type !== 'tool_use' || block.name !== askPersonTool.name) continue;
      results.push(
        await handleAskPerson(client, block, {
          // This is your own terminal: the one place the link is shown.
          showLink: (url) => process.stdout.write(`Open this on your phone: ${url}\n`),
        }),
      );
    }
    messages.push({ role: 'user', content: results });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runAgent(process.argv.slice(2).join(' ') || 'Ask me which day this week suits a 30-minute call, then confirm it.');
}
