import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SERVER_INSTRUCTIONS, TOOL_NAMES, TOOLS, toolInputJsonSchema, toolOutputJsonSchema } from '@sess/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EdgeServer, startEdgeServer } from './support/edge-server.ts';

/*
 * What tools/list serves through the real edge is what the contract generates: every tool's
 * name, title, description, annotations and both JSON Schemas, in both protocol eras, and the
 * server instructions. What the contract generates is held to a reviewed snapshot, with the
 * backwards-compatibility rules, in packages/host-free/contract/src/tools/tools.test.ts.
 */

let edge: EdgeServer;
beforeAll(async () => {
  edge = await startEdgeServer('fetch');
});
afterAll(async () => {
  await edge?.close();
});

async function connect(era: 'modern' | 'legacy'): Promise<Client> {
  const client = new Client(
    { name: 'contract-test', version: '1' },
    era === 'modern' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(edge.url), {
      requestInit: { headers: { Authorization: `Bearer ${edge.token}` } },
    }),
  );
  return client;
}

describe.each(['modern', 'legacy'] as const)('tools/list to a %s client', (era) => {
  it('is the contract: names in order, titles, descriptions, annotations and the generated schemas', async () => {
    const client = await connect(era);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES]);
      for (const tool of tools) {
        const name = tool.name as (typeof TOOL_NAMES)[number];
        expect(tool).toMatchObject({
          title: TOOLS[name].title,
          description: TOOLS[name].description,
          annotations: TOOLS[name].annotations,
        });
        expect([name, tool.inputSchema]).toEqual([name, toolInputJsonSchema(name)]);
        expect([name, tool.outputSchema]).toEqual([name, toolOutputJsonSchema(name)]);
      }
    } finally {
      await client.close();
    }
  });

  it('the server instructions are the contract’s', async () => {
    const client = await connect(era);
    try {
      expect(client.getInstructions()).toBe(SERVER_INSTRUCTIONS);
    } finally {
      await client.close();
    }
  });
});
