import type { NotifyBus } from '@sess/db';

/**
 * Listens on `channel` for the message `payload`, from now on; the function returned resolves
 * once it arrived (rejecting after `timeoutMs`) and stops listening. Subscribed after the code
 * under test, so by the time it resolves that code's own handler has heard the message too.
 */
export async function listenForMessage(
  bus: NotifyBus,
  channel: string,
  payload: string,
  timeoutMs = 5000,
): Promise<() => Promise<void>> {
  let heard!: () => void;
  const arrived = new Promise<void>((resolve) => {
    heard = resolve;
  });
  const unsubscribe = await bus.subscribe(channel, (message) => {
    if (message === payload) heard();
  });
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        arrived,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no "${payload}" on ${channel} within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      await unsubscribe();
    }
  };
}
