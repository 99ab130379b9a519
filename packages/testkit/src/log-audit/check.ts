import { ERROR_REGISTRY, ID_PREFIXES } from '@sess/core';
import { MIN_SECRET_LENGTH } from './capture.ts';

/** One secret found in the logs. */
export interface LogLeak {
  kind: string;
  /** The secret, shortened for the report (its start and length). */
  secret: string;
  /** Where: the log line's `event` (or `msg`), and the key path of the string that held it. */
  event: string;
  field: string;
}

/**
 * The value kinds that may appear in log lines though a test also sent or received them: our
 * own prefixed ids (`ws_…`, `ses_…`, `hdl_…`, …: log lines name what they act on), the codes of
 * our error registry (`HANDLE_NOT_FOUND`: a tool call's outcome), MCP tool names
 * (`sess_request`, the app-only `sess_view_answer`), WebAuthn transport names (`internal`), protocol versions and timestamps (`2025-06-18`, ISO times), JSON-RPC method
 * names (`tools/call`). Never a link, token, key, password, answer or form text.
 */
export const LOG_AUDIT_ALLOWLIST: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: 'prefixed id', pattern: new RegExp(`^(${Object.values(ID_PREFIXES).join('|')})_[a-z2-7]{26}$`) },
  { kind: 'error code', pattern: new RegExp(`^(${Object.keys(ERROR_REGISTRY).join('|')})$`) },
  { kind: 'MCP tool name', pattern: /^sess_(ask|request|response|publish|complete|list|cancel|view_answer|view_status)$/ },
  // A passkey's transports (`["internal", "hybrid"]` in a WebAuthn response): the words of the spec, not secrets.
  { kind: 'WebAuthn transport', pattern: /^(usb|nfc|ble|internal|hybrid|cable|smart-card)$/ },
  { kind: 'date or timestamp', pattern: /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/ },
  { kind: 'JSON-RPC method', pattern: /^[a-z]+(\/[a-zA-Z_]+)+$/ },
];

/** The allowlisted kind `value` is, if any. */
export function allowedKind(value: string): string | undefined {
  return LOG_AUDIT_ALLOWLIST.find(({ pattern }) => pattern.test(value))?.kind;
}

interface Located {
  text: string;
  event: string;
  field: string;
}

/** Every string in a parsed log line (keys and values), with where it was. */
function* stringsOf(value: unknown, event: string, path: string, depth = 0): Generator<Located> {
  if (depth > 32) return;
  if (typeof value === 'string') yield { text: value, event, field: path };
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) yield* stringsOf(item, event, `${path}/${i}`, depth + 1);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      yield { text: key, event, field: `${path}/${key} (key)` };
      yield* stringsOf(item, event, `${path}/${key}`, depth + 1);
    }
  }
}

/**
 * Looks for every secret in every log line. Each line is parsed and each of its strings (keys
 * too) searched, so escaping cannot hide a value; a line that is not JSON is searched as it is.
 * Secrets are found by their first MIN_SECRET_LENGTH characters in one pass over the text (an
 * index of anchors), then compared whole. Allowlisted kinds are not reported.
 */
export function findLeaks(secrets: Iterable<{ kind: string; value: string }>, logLines: Iterable<string>): LogLeak[] {
  const byAnchor = new Map<string, Array<{ kind: string; value: string }>>();
  for (const secret of secrets) {
    if (secret.value.length < MIN_SECRET_LENGTH || allowedKind(secret.value)) continue;
    const anchor = secret.value.slice(0, MIN_SECRET_LENGTH);
    const list = byAnchor.get(anchor);
    if (list) {
      if (!list.some((s) => s.value === secret.value)) list.push(secret);
    } else byAnchor.set(anchor, [secret]);
  }
  const leaks: LogLeak[] = [];
  const reported = new Set<string>();
  const seenTexts = new Set<string>();
  const search = (located: Located) => {
    const { text } = located;
    if (text.length < MIN_SECRET_LENGTH || seenTexts.has(text)) return;
    seenTexts.add(text);
    for (let i = 0; i + MIN_SECRET_LENGTH <= text.length; i++) {
      const candidates = byAnchor.get(text.slice(i, i + MIN_SECRET_LENGTH));
      if (!candidates) continue;
      for (const secret of candidates) {
        if (reported.has(secret.value) || !text.startsWith(secret.value, i)) continue;
        reported.add(secret.value);
        leaks.push({
          kind: secret.kind,
          secret: `${secret.value.slice(0, 12)}… (${secret.value.length} chars)`,
          event: located.event,
          field: located.field,
        });
      }
    }
  };
  for (const line of logLines) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      search({ text: line, event: '(not JSON)', field: '' });
      continue;
    }
    const record = parsed as { event?: unknown; msg?: unknown };
    const event = String(record.event ?? record.msg ?? '(no event)');
    for (const located of stringsOf(parsed, event, '')) search(located);
  }
  return leaks;
}
