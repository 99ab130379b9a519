const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `m:ss` of a duration in milliseconds. */
export function formatWaited(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** What the person sees while the demo waits for the answer. */
export interface WaitProgress {
  /** One wait came back with no answer yet (a plain line when there is no spinner). */
  stillWaiting(): void;
  /** Clears the spinner line, so what follows starts on a clean line. */
  stop(): void;
}

/**
 * A spinner with the time waited, redrawn in place, on a terminal; on anything else (a pipe, a
 * file, a test) one plain line per wait that came back empty, so a log stays readable.
 */
export function startWaitProgress(out: NodeJS.WritableStream & { isTTY?: boolean }, label: string, now = Date.now): WaitProgress {
  const started = now();
  if (!out.isTTY) {
    out.write(`${label}…\n`);
    return {
      stillWaiting: () => out.write(`  still waiting (${formatWaited(now() - started)})\n`),
      stop: () => {},
    };
  }
  let frame = 0;
  const draw = () =>
    out.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label}… ${formatWaited(now() - started)} (Ctrl-C to stop) `);
  draw();
  const timer = setInterval(draw, 100);
  return {
    stillWaiting: () => {},
    stop: () => {
      clearInterval(timer);
      out.write('\r\x1b[2K');
    },
  };
}
