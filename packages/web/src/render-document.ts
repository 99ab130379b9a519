import type { JSXNode } from 'hono/jsx';
import type { StringBufferWithCallbacks } from 'hono/utils/html';

/**
 * The document string of a page: doctype + the rendered JSX, rendered synchronously.
 *
 * Not `node.toString()`: hono renders that inside an AsyncLocalStorage (so `useContext` survives
 * an `await` in an async component), and on Node 20 the first `AsyncLocalStorage.run` turns on
 * promise hooks for the whole process, for good — every promise after it, on every request,
 * then carries two async ids and calls a hook when made. Sess's pages are synchronous and use no
 * context, so the node renders straight into a buffer; an async component is refused here
 * rather than half-rendered.
 */
export function toDocument(node: unknown): string {
  const buffer = [''] as unknown as StringBufferWithCallbacks;
  (node as JSXNode).toStringToBuffer(buffer);
  if (buffer.length !== 1 || 'callbacks' in buffer)
    throw new Error('a page rendered asynchronously: Sess pages must be synchronous');
  return `<!doctype html>${buffer[0]}`;
}
