import { toPointer } from '@sess/core';
import { UNSAFE_KEYS } from '@sess/surface';

/**
 * The path of the first key that could reach an object's prototype (`__proto__`,
 * `constructor`, `prototype`) anywhere in a parsed JSON body, in document order; undefined when
 * there is none. `JSON.parse` makes such a key an own property, and a later copy by assignment
 * would turn it into a prototype. The walk is iterative, so a deeply nested body cannot exhaust
 * the stack.
 */
export function findUnsafeKey(value: unknown): Array<string | number> | undefined {
  // Depth-first in document order: each key is checked when its entry is taken off the stack.
  // Entries link to their parent, so the path is built only for a hit (never copied per node).
  type Entry = { node: unknown; key: string | number | undefined; parent: Entry | undefined };
  const stack: Entry[] = [{ node: value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (typeof entry.key === 'string' && UNSAFE_KEYS.has(entry.key)) {
      const path: Array<string | number> = [];
      for (let at: Entry | undefined = entry; at?.key !== undefined; at = at.parent) path.push(at.key);
      return path.reverse();
    }
    const { node } = entry;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], key: i, parent: entry });
    } else {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ node: (node as Record<string, unknown>)[key], key, parent: entry });
      }
    }
  }
  return undefined;
}

/** The pointer of an unsafe key inside a tools/call's arguments, relative to the arguments. */
export function argumentsPointer(path: ReadonlyArray<string | number>): string | undefined {
  if (path.length >= 3 && path[0] === 'params' && path[1] === 'arguments') return toPointer(path.slice(2));
  return undefined;
}
