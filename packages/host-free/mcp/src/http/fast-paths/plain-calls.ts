import { type CallToolResult, createMcpHandler, type Server } from '@modelcontextprotocol/server';
import type { ToolName } from '@sess/contract';
import { newSessServer } from '../../tools/build-server.ts';
import { type Era, type Id, plainRequest } from './plain-request.ts';
import { captureFrame, type Frame, fillFrame, lazyFrames, PLACEHOLDER_ID } from './sdk-frames.ts';

/*
 * A plain tools/call answered by the edge in the SDK's own framing. For each call the SDK builds
 * a server, a transport and its protocol maps, validates the message with zod both ways and
 * throws an error with a stack trace as the server closes: about a third of what a sess_ask
 * costs in all, and what a parked wait holds for up to 45 s. The tool itself is the same runner
 * the SDK's server calls (../tools/build-server.ts). What the SDK adds to a tool result on the
 * wire is learnt from the SDK: once per era it answers a call whose result is a placeholder, and
 * that answer, cut at the placeholder and the id (./sdk-frames.ts), frames every result after,
 * and the server that gave it projects each result as the SDK path's server does
 * (`projectCallToolResult`, the era's rule, against the tool's advertised output schema).
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

/** What the SDK path's server does to a tool's result before it frames it, in one era. */
type Projection = Server['projectCallToolResult'];

/** A tool call answer in one era: the SDK's framing, and its projection of a result. */
export interface CallFrame {
  frame: Frame;
  project: Projection;
}

/** The frames of tool call answers, one per era. */
export interface CallFrames {
  /** The era's frame, or undefined when the SDK must answer. Asked before the call runs: a call is never run twice. */
  frame(era: Era): Promise<CallFrame | undefined>;
  /**
   * The answer to call `id` with `result` in `frame`: the result projected as the SDK path
   * projects it (against the tool's advertised `outputSchema`), then framed.
   */
  answer(frame: CallFrame, id: Id, result: CallToolResult, outputSchema?: Record<string, unknown>): Response;
  close(): Promise<void>;
}

export function createCallFrames(maxBodyBytes: number): CallFrames {
  // The capture's server, kept per era for its projection (the era is the server's own state).
  const projections = new Map<Era, Projection>();
  // The same server every call gets (identity, capabilities), its tools/call answering the placeholder.
  const capturing = createMcpHandler(
    () => {
      const server = newSessServer();
      server.setRequestHandler('tools/call', (request) => {
        // The capture names its era in its arguments.
        const era = request.params.arguments?.era as Era;
        projections.set(era, (result, outputSchema) => server.projectCallToolResult(result, outputSchema));
        return PLACEHOLDER_RESULT;
      });
      return server;
    },
    { legacy: 'stateless', maxRequestBodySize: maxBodyBytes },
  );
  const frame = lazyFrames(async (era): Promise<CallFrame | undefined> => {
    const captured = await captureFrame(
      capturing,
      era,
      { method: 'tools/call', params: { name: 'sess_list', arguments: { era } }, tool: 'sess_list' },
      [members(PLACEHOLDER_RESULT), JSON.stringify(PLACEHOLDER_ID)],
    );
    const project = projections.get(era);
    return captured && project && { frame: captured, project };
  });
  return {
    frame,
    answer: (call, id, result, outputSchema) =>
      fillFrame(call.frame, [members(call.project(result, outputSchema)), JSON.stringify(id)]),
    close: () => capturing.close(),
  };
}
