import type { Transport } from '@modelcontextprotocol/server';

/*
 * The stdio wire with one step in front of the server: before a `tools/call` reaches it, the
 * process's scope is resolved (the API key read, the workspace learnt). The adapter's scope is
 * synchronous, so the asynchronous part happens here, in order: messages that arrive while a
 * resolution is pending wait behind it, so a cancellation never overtakes the call it cancels.
 * Once resolved, messages pass straight through.
 */

type OnMessage = NonNullable<Transport['onmessage']>;

function isToolCall(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'tools/call' &&
    'id' in (message as object)
  );
}

/** `wire` with `beforeToolCall` awaited ahead of every `tools/call` until `isReady()`; `onClosed` after the wire closed. */
export function gateToolCalls(
  wire: Transport,
  beforeToolCall: () => Promise<void>,
  isReady: () => boolean,
  onClosed?: () => void,
): Transport {
  let queue: Promise<void> = Promise.resolve();
  let pending = 0;
  const gate: Transport = {
    start: () => wire.start(),
    send: (message, options) => wire.send(message, options),
    close: () => wire.close(),
    setProtocolVersion: (version) => wire.setProtocolVersion?.(version),
  };
  wire.onclose = () => {
    gate.onclose?.();
    onClosed?.();
  };
  wire.onerror = (error) => gate.onerror?.(error);
  const deliver: OnMessage = (message, extra) => gate.onmessage?.(message, extra);
  wire.onmessage = (message, extra) => {
    if (pending === 0 && (isReady() || !isToolCall(message))) {
      deliver(message, extra);
      return;
    }
    pending++;
    queue = queue
      .then(async () => {
        if (isToolCall(message) && !isReady()) await beforeToolCall();
        deliver(message, extra);
      })
      .catch((error: unknown) => gate.onerror?.(error instanceof Error ? error : new Error('gate failed')))
      .finally(() => {
        pending--;
      });
  };
  return gate;
}
