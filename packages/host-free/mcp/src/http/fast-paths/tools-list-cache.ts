import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { type Era, type Id, plainRequest } from './plain-request.ts';
import { captureFrame, fillFrame, lazyFrames, PLACEHOLDER_ID } from './sdk-frames.ts';

/*
 * tools/list is the same for every caller and never changes while the process runs, yet the SDK
 * rebuilds it on every request: a server instance, each tool's JSON Schema copied and scanned,
 * about 52 KB serialised. This cache keeps the SDK's own answer per protocol era, cut at the
 * request id (./sdk-frames.ts), and answers a plain tools/list (./plain-request.ts) by splicing
 * in the request's id; anything else — a cursor, say — goes to the SDK.
 */

/** The era of a plain tools/list request this cache may answer, or undefined (the SDK answers). */
export function plainToolsListEra(headers: Headers, body: unknown): { era: Era; id: Id } | undefined {
  const plain = plainRequest(headers, body, 'tools/list');
  return plain && { era: plain.era, id: plain.id };
}

/** The cached tools/list answers. */
export interface ToolsListCache {
  respond(era: Era, id: Id): Promise<Response | undefined>;
}

/** One cached answer per era, filled from the SDK on first use. */
export function createToolsListCache(mcp: McpHttpHandler): ToolsListCache {
  const frameOf = lazyFrames(async (era) => {
    const frame = await captureFrame(mcp, era, { method: 'tools/list' }, [JSON.stringify(PLACEHOLDER_ID)]);
    // Only a list of tools is kept (a 200 could in principle carry an error object).
    return frame?.pieces[0]?.toString('utf8').includes('{"result":{"tools":[') ? frame : undefined;
  });
  return {
    async respond(era, id) {
      const frame = await frameOf(era);
      return frame && fillFrame(frame, [JSON.stringify(id)]);
    },
  };
}
