import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestScope, ToolDeps } from './call.ts';
import type { ListResult, Operation } from './operations.ts';
import { runTool, type ToolCallReport } from './run-tool.ts';

/*
 * The call's log line counts the whole call, a wait included: on fake timers (performance.now
 * among them), a call that waits 200 ms reports 200 ms, and the test never sleeps.
 */

afterEach(() => {
  vi.useRealTimers();
});

const opened = { deps: { now: () => new Date(0), maxWaitMs: 45_000 } as ToolDeps, scope: {} as RequestScope };

describe('runTool', () => {
  it('reports the time of the whole call, a wait included', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const waiting: Operation = {
      kind: 'list',
      run: () => new Promise<ListResult>((resolve) => setTimeout(() => resolve({} as ListResult), 200)),
    };
    const reports: ToolCallReport[] = [];
    const call = runTool('sess_list', waiting, {}, { open: async () => opened, report: (report) => reports.push(report) });
    await vi.advanceTimersByTimeAsync(199);
    expect(reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toEqual({ ok: true, value: {} });
    expect(reports).toEqual([{ tool: 'sess_list', handle: undefined, outcome: 'ok', ms: 200 }]);
  });
});
