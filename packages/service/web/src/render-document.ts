/*
 * Every Sess page is rendered through `toDocument`, which keeps hono/jsx from turning on
 * async hooks for the whole process.
 *
 * Since 4.13, hono/jsx renders inside `AsyncLocalStorage.run` whenever it can find
 * AsyncLocalStorage, so that `useContext` keeps working after an `await` in an async component.
 * Sess's pages are synchronous and use no context, so they gain nothing from it. But on Node 20,
 * the first `run` installs async hooks for the rest of the process's life. From the first page
 * anyone views (an OAuth sign-in renders several), every promise of every request pays an init
 * hook. Measured on this machine, an `await` then cost 2–3× as much, and /v1 session create spent
 * 1.6 % of its CPU in the hooks alone.
 *
 * Hono looks for AsyncLocalStorage once, at its first render, in two places:
 * `process.getBuiltinModule` and `process.mainModule.require`. The first render made here hides
 * both, so hono finds neither and renders as it does on a runtime without AsyncLocalStorage:
 * synchronously, with a plain module-level store. A test renders every kind of page and checks
 * that no async hook was installed, so a hono release that looks elsewhere is caught.
 */

/** What a JSX element is to its caller: something whose string is the rendered HTML. */
interface Renderable {
  toString(): string | Promise<string>;
}

let probed = false;

/** Renders hono's one-time lookup of AsyncLocalStorage while neither place it looks is reachable. */
function firstRender(node: Renderable): string | Promise<string> {
  const host = process as { getBuiltinModule?: unknown; mainModule?: unknown };
  const getBuiltinModule = Object.getOwnPropertyDescriptor(host, 'getBuiltinModule');
  const mainModule = Object.getOwnPropertyDescriptor(host, 'mainModule');
  Object.defineProperty(host, 'getBuiltinModule', { value: undefined, configurable: true, writable: true });
  Object.defineProperty(host, 'mainModule', { value: undefined, configurable: true, writable: true });
  try {
    return node.toString();
  } finally {
    restore(host, 'getBuiltinModule', getBuiltinModule);
    restore(host, 'mainModule', mainModule);
  }
}

function restore(host: object, name: string, descriptor: PropertyDescriptor | undefined): void {
  if (descriptor) Object.defineProperty(host, name, descriptor);
  else delete (host as Record<string, unknown>)[name];
}

/** A page's document: the doctype and the rendered JSX, which must render synchronously. */
export function toDocument(node: Renderable): string {
  return `<!doctype html>${toFragment(node)}`;
}

/** Rendered JSX that is part of a document (the chat view's fragment), under the same rule as a page. */
export function toFragment(node: Renderable): string {
  let html: string | Promise<string>;
  if (probed) {
    html = node.toString();
  } else {
    probed = true;
    html = firstRender(node);
  }
  if (typeof html !== 'string' && !(html instanceof String)) {
    throw new Error('A Sess page rendered asynchronously; pages must be synchronous JSX.');
  }
  return String(html);
}
