/** A JSON object (not null, not an array): what a JSON-RPC message, its params and a tool's arguments are. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
