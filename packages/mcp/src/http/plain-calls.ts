import { type CallToolResult, createMcpHandler } from '@modelcontextprotocol/server';
import type { ToolName } from '@sess/contract';
import { newSessServer } from '../tools/build-server.ts';
import { type Era, type Id, plainRequest } from './plain-request.ts';
import { captureFrame, type Frame, fillFrame, lazyFrames, PLACEHOLDER_ID } from './sdk-frames.ts';

/*
 * A plain tools/call answered by the edge in the SDK's own framing. For each call the SDK builds
 * a server, a transport and its protocol maps, validates the message with zod both ways and
 * throws an error with a stack trace as the server closes: about a third of what a sess_ask
 * costs in all, and what a parked wait holds for up to 45 s. The tool itself is the same runner
 * the SDK's server calls (../tools/build-server.ts). What the SDK adds to a tool result on the
 * wire is learnt from the SDK: once per era it answers a call whose result is a placeholder, and
 * that answer, cut at the placeholder and the id (./sdk-frames.ts), frames every result after.
 * Anything but a plain call (./plain-request.ts) goes to the SDK, as does every call should the
 * capture not cut cleanly.
 */

const PLACEHOLDER_TEXT = 'sess-frame-result-3f1c';
/** A result of the shape every tool result has: text content and an object of structured content. */
const PLACEHOLDER_RESULT: CallToolResult = {
  content: [{ type: 'text', text: PLACEHOLDER_TEXT }],
  structuredContent: { placeholder: PLACEHOLDER_TEXT },
};

/** A result's members as JSON text without the braces: what the frame's result hole takes. */
function members(result: CallToolResult): string {
  return JSON.stringify(result).slice(1, -1);
}

/** A plain call of one of `tools`: its era, id, tool and arguments, or undefined. */
export function plainToolCall(
  headers: Headers,
  body: unknown,
  tools: ReadonlySet<string>,
): { era: Era; id: Id; name: ToolName; args: unknown } | undefined {
  const plain = plainRequest(headers, body, 'tools/call', tools);
  return plain && { era: plain.era, id: plain.id, name: plain.params.name as ToolName, args: plain.params.arguments };
}

/** The frames of tool call answers, one per era. */
export interface CallFrames {
  /** The era's frame, or undefined when the SDK must answer. Asked before the call runs: a call is never run twice. */
  frame(era: Era): Promise<Frame | undefined>;
  /** The answer to call `id` with `result`, in `frame`. */
  answer(frame: Frame, id: Id, result: CallToolResult): Response;
  close(): Promise<void>;
}

export function createCallFrames(maxBodyBytes: number): CallFrames {
  // The same server every call gets (identity, capabilities), its tools/call answering the placeholder.
  const capturing = createMcpHandler(
    () => {
      const server = newSessServer();
      server.setRequestHandler('tools/call', () => PLACEHOLDER_RESULT);
      return server;
    },
    { legacy: 'stateless', maxRequestBodySize: maxBodyBytes },
  );
  const frame = lazyFrames((era) =>
    captureFrame(capturing, era, { method: 'tools/call', params: { name: 'sess_list', arguments: {} }, tool: 'sess_list' }, [
      members(PLACEHOLDER_RESULT),
      JSON.stringify(PLACEHOLDER_ID),
    ]),
  );
  return {
    frame,
    answer: (frame, id, result) => fillFrame(frame, [members(result), JSON.stringify(id)]),
    close: () => capturing.close(),
  };
}
