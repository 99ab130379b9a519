import type { HandleStore } from '@sess/interactions';
import type { PausePoint } from '../config/load-config.ts';
import { type LineSink, writeEvent } from './stderr-log.ts';

/*
 * TEST ONLY (`SESS_MCP_TEST_PAUSE_AT`): the crash tests kill this process with SIGKILL at a
 * durable step, and need it to be exactly there. With the variable set, the process stops right
 * after that step has been written — the create intent saved (before the create request), or a
 * publish/complete saved (before it is sent) — writes `sess-mcp test.paused step=<step>` to
 * stderr and waits for ever. Nothing else changes; an owner never sets it.
 */

/** The bound store, pausing after the step `at`. */
export function pauseAfterStep(store: HandleStore, at: PausePoint, sink: LineSink): HandleStore {
  const pause = (): Promise<never> => {
    writeEvent(sink, 'test.paused', { step: at });
    return new Promise<never>(() => undefined);
  };
  const wrapped: HandleStore = {
    get binding() {
      return store.binding;
    },
    get: (handle) => store.get(handle),
    removeIntent: (handle, version) => store.removeIntent(handle, version),
    list: (input) => store.list(input),
    async insert(record) {
      await store.insert(record);
      if (at === 'after_create_intent' && record.state === 'create_intent') await pause();
    },
    async update(handle, expectedVersion, patch) {
      const updated = await store.update(handle, expectedVersion, patch);
      if (at === 'after_mutation_saved' && updated && patch.pending) await pause();
      return updated;
    },
  };
  return wrapped;
}
