import { describe, expect, it } from 'vitest';
import { metaDeclaresTasks, missingTasksCapability, requestDeclaresTasks, TASKS_EXTENSION_ID } from './tasks-extension.ts';

const modern = (capabilities: unknown) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});

describe('the Tasks extension declaration', () => {
  it('is a 2026-07-28 request whose own capabilities name the extension', () => {
    expect(metaDeclaresTasks(modern({ extensions: { [TASKS_EXTENSION_ID]: {} } }))).toBe(true);
    expect(requestDeclaresTasks({ params: { _meta: modern({ extensions: { [TASKS_EXTENSION_ID]: {} } }) } })).toBe(true);
  });

  it('is nothing else: another extension, a non-object value, another era, no metadata', () => {
    expect(metaDeclaresTasks(modern({ extensions: { 'io.modelcontextprotocol/ui': {} } }))).toBe(false);
    expect(metaDeclaresTasks(modern({ extensions: { [TASKS_EXTENSION_ID]: true } }))).toBe(false);
    expect(metaDeclaresTasks(modern({}))).toBe(false);
    expect(
      metaDeclaresTasks({
        'io.modelcontextprotocol/protocolVersion': '2025-11-25',
        'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION_ID]: {} } },
      }),
    ).toBe(false);
    expect(requestDeclaresTasks({ method: 'tasks/get', params: { taskId: 'x' } })).toBe(false);
    expect(requestDeclaresTasks(null)).toBe(false);
  });

  it('when missing, -32021 names the extension the request must declare', () => {
    const error = missingTasksCapability();
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } });
  });
});
