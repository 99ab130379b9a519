/*
 * The rules of docs/migrations.md that a machine can check: a migration runs while the previous
 * release still serves on the same database, so it only adds (expand). A statement that removes
 * or tightens what the previous release's code may use (drop, rename, a type change, NOT NULL, a
 * new constraint or unique index on a table that already exists, deleting rows, replacing a
 * function) is refused unless its file says, on a comment line, why that is safe:
 *
 *   -- contract of <commit>: <what the code of that release stopped using>
 *       the contract step: the named release (a commit, at least 7 hex digits) was the first whose
 *       code no longer uses what this removes, and it has shipped before this migration.
 *   -- safe with the previous release: <why its code keeps working>
 *       a reviewed exception: the statement only looks destructive (a trigger swapped inside the
 *       migration's one transaction), or was accepted before these rules, with what it cost.
 *
 * Statements on a table the same file creates are free: no released code knows that table.
 */

/** Why a statement is refused without a marker. */
export type DestructiveRule =
  | 'drops'
  | 'renames'
  | 'changes a column type'
  | 'sets NOT NULL'
  | 'adds a NOT NULL column without a default'
  | 'adds a constraint to an existing table'
  | 'adds a unique index to an existing table'
  | 'deletes rows'
  | 'replaces a function or view';

export interface DestructiveStatement {
  rule: DestructiveRule;
  /** The statement, comments and quoted bodies removed, on one line (at most 160 characters). */
  statement: string;
}

export type MigrationMarker = { kind: 'contract'; release: string; why: string } | { kind: 'safe'; why: string };

export interface MigrationReview {
  destructive: DestructiveStatement[];
  marker: MigrationMarker | undefined;
  /** What is wrong with the file; empty when it may ship. */
  problems: string[];
}

const CONTRACT_MARKER = /^--\s*contract of ([0-9a-f]{7,40}):\s*(\S.*)$/m;
const SAFE_MARKER = /^--\s*safe with the previous release:\s*(\S.*)$/m;
/** A reason shorter than this explains nothing. */
const MIN_REASON_LENGTH = 30;

/**
 * The statements of a migration file, without comments, string literals or dollar-quoted bodies
 * (a function's body runs later, as code): one left-to-right scan, so a quote inside a comment or
 * a semicolon inside a literal is what SQL says it is.
 */
export function migrationStatements(text: string): string[] {
  const statements: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; ) {
    const rest = text.slice(i, i + 2);
    if (rest === '--') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      current += ' ';
    } else if (rest === '/*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 2;
      current += ' ';
    } else if (text[i] === "'") {
      let end = i + 1;
      while (end < text.length && !(text[end] === "'" && text[end + 1] !== "'")) end += text[end] === "'" ? 2 : 1;
      i = end + 1;
      current += "''";
    } else if (text[i] === '$' && /^\$\w*\$/.test(text.slice(i))) {
      const tag = /^\$\w*\$/.exec(text.slice(i))![0];
      const end = text.indexOf(tag, i + tag.length);
      i = end === -1 ? text.length : end + tag.length;
      current += '$$';
    } else if (text[i] === ';') {
      statements.push(current);
      current = '';
      i++;
    } else {
      current += text[i];
      i++;
    }
  }
  statements.push(current);
  return statements.map((statement) => statement.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

const IDENTIFIER = String.raw`(?:"?public"?\.)?"?(\w+)"?`;
const ALTERED_TABLE = new RegExp(`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?${IDENTIFIER}`, 'i');
const INDEXED_TABLE = new RegExp(String.raw`\bON (?:ONLY )?${IDENTIFIER}`, 'i');
const CREATED_TABLE = new RegExp(`^CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?${IDENTIFIER}`, 'i');

/** The table a statement changes, when it changes one (ALTER TABLE, CREATE INDEX … ON, DROP TRIGGER … ON). */
function targetTable(statement: string): string | undefined {
  return (ALTERED_TABLE.exec(statement) ?? (/^(CREATE|DROP)\b/i.test(statement) ? INDEXED_TABLE.exec(statement) : null))?.[1];
}

function ruleOf(statement: string): DestructiveRule | undefined {
  const s = statement.toUpperCase();
  if (/^(DELETE|TRUNCATE)\b/.test(s)) return 'deletes rows';
  if (/^CREATE OR REPLACE\b/.test(s)) return 'replaces a function or view';
  if (/\bRENAME\b/.test(s)) return 'renames';
  if (/\bDROP\b/.test(s)) return 'drops';
  if (/\bALTER COLUMN\b.*\b(SET DATA )?TYPE\b/.test(s)) return 'changes a column type';
  if (/\bSET NOT NULL\b/.test(s)) return 'sets NOT NULL';
  const addsColumn = /\bADD (COLUMN\b|(?!CONSTRAINT\b|PRIMARY\b|UNIQUE\b|CHECK\b|FOREIGN\b|EXCLUDE\b)"?\w+"? \w)/.test(s);
  if (addsColumn && /\bNOT NULL\b/.test(s) && !/\bDEFAULT\b/.test(s)) return 'adds a NOT NULL column without a default';
  if (/\bADD (CONSTRAINT|PRIMARY KEY|UNIQUE|CHECK|FOREIGN KEY|EXCLUDE)\b/.test(s))
    return 'adds a constraint to an existing table';
  if (/^CREATE UNIQUE INDEX\b/.test(s)) return 'adds a unique index to an existing table';
  return undefined;
}

/** Reviews one migration file's text against the rules. */
export function reviewMigration(text: string): MigrationReview {
  const statements = migrationStatements(text);
  const created = new Set<string>();
  for (const statement of statements) {
    const table = CREATED_TABLE.exec(statement)?.[1];
    if (table) created.add(table.toLowerCase());
  }
  const destructive: DestructiveStatement[] = [];
  for (const statement of statements) {
    const rule = ruleOf(statement);
    if (!rule) continue;
    const table = targetTable(statement);
    if (table && created.has(table.toLowerCase())) continue;
    destructive.push({ rule, statement: statement.length > 160 ? `${statement.slice(0, 157)}…` : statement });
  }

  const contract = CONTRACT_MARKER.exec(text);
  const safe = SAFE_MARKER.exec(text);
  const marker: MigrationMarker | undefined = contract
    ? { kind: 'contract', release: contract[1]!, why: contract[2]!.trim() }
    : safe
      ? { kind: 'safe', why: safe[1]!.trim() }
      : undefined;

  const problems: string[] = [];
  if (contract && safe) problems.push('carries both markers: a file is a contract step or a reviewed exception, not both');
  if (marker && marker.why.length < MIN_REASON_LENGTH)
    problems.push(`its marker's reason is too short to explain anything (${MIN_REASON_LENGTH} characters at least)`);
  if (destructive.length > 0 && !marker) {
    for (const found of destructive)
      problems.push(
        `${found.rule} while the previous release may still use it: ${found.statement}. Expand now and contract in a later ` +
          'release (docs/migrations.md); a contract step says "-- contract of <commit>: <what that release stopped using>"',
      );
  }
  if (marker && destructive.length === 0) problems.push('carries a marker, but no statement of it needs one: remove the marker');
  return { destructive, marker, problems };
}
