import { existsSync, readFileSync } from 'node:fs';
import { sessAskInputSchema, sessRequestInputSchema } from '@sess/surface';
import { describe, expect, it } from 'vitest';
import * as descriptions from './descriptions.ts';
import { compatibilityBreaches } from './schema-compatibility.ts';
import { type ListedTool, listedTools, TOOL_NAMES, TOOLS, toolInputJsonSchema, toolOutputJsonSchema } from './tools.ts';

/*
 * What agents read is reviewed, not frozen: __snapshots__/tools-list.json is tools/list and the
 * agent-facing texts as generated today. A change that alters them fails here until it is
 * reviewed and the snapshot regenerated (`npx vitest run --project unit packages/host-free/contract -u`),
 * so the diff of the snapshot is the diff a reviewer reads. The compatibility rules
 * (schema-compatibility.ts) are checked against the snapshot as it was before this run wrote it:
 * a change may add an optional input or a field type, never take away what a caller relies on.
 */

const SNAPSHOT = './__snapshots__/tools-list.json';
const snapshotUrl = new URL(SNAPSHOT, import.meta.url);

/** What the snapshot holds: tools/list, then each agent-facing text. */
function generated() {
  const { linkLines, ...texts } = descriptions;
  return { tools: listedTools(), texts: { ...texts, linkLines: linkLines('https://sess.test/s/x') } };
}

// Read before the snapshot test below may rewrite it (with -u): the rules hold against the reviewed one.
const reviewed = existsSync(snapshotUrl)
  ? (JSON.parse(readFileSync(snapshotUrl, 'utf8')) as ReturnType<typeof generated>)
  : undefined;

describe('tools/list', () => {
  it('is the reviewed snapshot (regenerate with -u once the diff is reviewed)', async () => {
    await expect(`${JSON.stringify(generated(), null, 2)}\n`).toMatchFileSnapshot(SNAPSHOT);
  });

  it.each(TOOL_NAMES)('%s stays compatible with the reviewed snapshot', (name) => {
    const before = reviewed?.tools.find((tool) => tool.name === name) as ListedTool | undefined;
    if (!before) return; // a new tool: nothing to stay compatible with
    const now = listedTools().find((tool) => tool.name === name)!;
    expect(compatibilityBreaches(before.inputSchema, now.inputSchema, 'input')).toEqual([]);
    expect(compatibilityBreaches(before.outputSchema, now.outputSchema, 'output')).toEqual([]);
    expect(now.annotations).toEqual(before.annotations);
  });

  it('keeps every tool the snapshot lists, in order', () => {
    const names = reviewed?.tools.map((tool) => tool.name) ?? [];
    expect(TOOL_NAMES.slice(0, names.length)).toEqual(names);
  });
});

describe('tool input schemas', () => {
  it('sess_ask and sess_request are @sess/surface’s own schemas', () => {
    expect(toolInputJsonSchema('sess_ask')).toEqual(sessAskInputSchema());
    expect(toolInputJsonSchema('sess_request')).toEqual(sessRequestInputSchema());
  });
});

describe('tool JSON Schemas', () => {
  it('are built once, frozen and shared', () => {
    for (const tool of TOOL_NAMES) {
      expect(toolInputJsonSchema(tool)).toBe(toolInputJsonSchema(tool));
      expect(Object.isFrozen(toolInputJsonSchema(tool).properties)).toBe(true);
      expect(Object.isFrozen(toolOutputJsonSchema(tool))).toBe(true);
    }
  });
});

describe('descriptions', () => {
  it('name each tool with its own description', () => {
    expect(TOOLS.sess_publish.description).toBe(descriptions.SESS_PUBLISH_DESCRIPTION);
    expect(TOOL_NAMES.map((name) => TOOLS[name].name)).toEqual([...TOOL_NAMES]);
  });

  it('tell both create tools whether the person was notified', () => {
    expect(TOOLS.sess_ask.description).toContain(descriptions.NOTIFIED_SENTENCE);
    expect(TOOLS.sess_request.description).toContain(descriptions.NOTIFIED_SENTENCE);
  });
});
