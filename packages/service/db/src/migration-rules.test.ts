import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from './migrate.ts';
import { migrationStatements, reviewMigration } from './migration-rules.ts';

const files = readdirSync(MIGRATIONS_FOLDER)
  .filter((name) => name.endsWith('.sql'))
  .sort();
const read = (name: string) => readFileSync(join(MIGRATIONS_FOLDER, name), 'utf8');

describe('the committed migrations keep the previous release working (docs/migrations.md)', () => {
  it('finds them all', () => {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: Array<{ tag: string }>;
    };
    expect(files).toEqual(journal.entries.map((entry) => `${entry.tag}.sql`));
  });

  it.each(files)('%s only expands, or says why its destructive statements are safe', (name) => {
    expect(reviewMigration(read(name)).problems).toEqual([]);
  });

  // A contract names the release whose code stopped using what it removes: that commit must be
  // in this repository's history, before the commit that adds the contract (a later release).
  const git = (...args: string[]) => spawnSync('git', ['-C', dirname(MIGRATIONS_FOLDER), ...args], { encoding: 'utf8' });
  const contracts = files.flatMap((name) => {
    const marker = reviewMigration(read(name)).marker;
    return marker?.kind === 'contract' ? [{ name, release: marker.release }] : [];
  });
  const history = git('rev-parse', '--is-shallow-repository').stdout.trim() === 'false';
  it.runIf(contracts.length > 0 && history).each(contracts)(
    '$name contracts after its release $release has shipped',
    ({ name, release }) => {
      expect(git('cat-file', '-e', `${release}^{commit}`).status, `${release} is not a commit of this repository`).toBe(0);
      const added = git('log', '-1', '--diff-filter=A', '--format=%H', '--', `migrations/${name}`).stdout.trim();
      // Uncommitted, the contract ships after HEAD: the release must be HEAD or before it. Committed, strictly before it.
      const before = added ? `${added}^` : 'HEAD';
      expect(git('merge-base', '--is-ancestor', release, before).status, `${release} is not a release before ${name}`).toBe(0);
    },
  );
});

describe('reviewMigration', () => {
  const refused = (text: string) => reviewMigration(text).destructive.map((found) => found.rule);

  it.each([
    ['ALTER TABLE "form_sessions" DROP COLUMN "ask_name";', 'drops'],
    ['DROP TABLE "vapid_keys";', 'drops'],
    ['DROP INDEX "api_keys_workspace_idx";', 'drops'],
    ['ALTER TABLE "users" ALTER COLUMN "display_name" DROP DEFAULT;', 'drops'],
    ['ALTER TABLE "users" RENAME COLUMN "display_name" TO "name";', 'renames'],
    ['ALTER TABLE "users" RENAME TO "people";', 'renames'],
    ['ALTER TABLE "users" ALTER COLUMN "email" SET DATA TYPE varchar(320);', 'changes a column type'],
    ['ALTER TABLE "users" ALTER COLUMN "email" TYPE citext;', 'changes a column type'],
    ['ALTER TABLE "users" ALTER COLUMN "display_name" SET NOT NULL;', 'sets NOT NULL'],
    ['ALTER TABLE "users" ADD COLUMN "locale" text NOT NULL;', 'adds a NOT NULL column without a default'],
    ['ALTER TABLE "users" ADD "locale" text NOT NULL;', 'adds a NOT NULL column without a default'],
    ['ALTER TABLE "users" ADD CONSTRAINT "users_email_check" CHECK (email <> \'\');', 'adds a constraint to an existing table'],
    ['ALTER TABLE "users" ADD UNIQUE ("display_name");', 'adds a constraint to an existing table'],
    ['CREATE UNIQUE INDEX "users_name_key" ON "users" USING btree ("display_name");', 'adds a unique index to an existing table'],
    ['DELETE FROM "idempotency_keys";', 'deletes rows'],
    ['TRUNCATE "sign_in_attempts";', 'deletes rows'],
    ['CREATE OR REPLACE FUNCTION "f"() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;', 'replaces a function or view'],
  ])('refuses %s without a marker', (statement, rule) => {
    expect(refused(statement)).toEqual([rule]);
    expect(reviewMigration(statement).problems).toEqual([expect.stringContaining(rule)]);
  });

  it.each([
    'CREATE TABLE "things" ("id" text PRIMARY KEY NOT NULL);',
    'ALTER TABLE "users" ADD COLUMN "locale" text;',
    'ALTER TABLE "notification_outbox" ADD COLUMN "sent_to" text[] DEFAULT \'{}\'::text[] NOT NULL;',
    'CREATE INDEX "users_name_idx" ON "users" USING btree ("display_name");',
    'UPDATE "users" SET "display_name" = "email" WHERE "display_name" IS NULL;',
    'CREATE FUNCTION "f"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM x; DROP TABLE y; RETURN NULL; END $$;',
    "INSERT INTO open_counts (key, counted) SELECT 'drop table x; rename', 1;",
    '-- Nothing is dropped; old rows are renamed in the docs only.\nCREATE INDEX "a" ON "b" ("c");',
  ])('lets an expand statement pass: %s', (statement) => {
    expect(reviewMigration(statement)).toEqual({ destructive: [], marker: undefined, problems: [] });
  });

  it('frees statements on a table the same file creates (no released code knows it)', () => {
    const text = [
      'CREATE TABLE "things" ("id" text PRIMARY KEY NOT NULL, "owner" text NOT NULL);',
      'ALTER TABLE "things" ADD CONSTRAINT "things_owner_fk" FOREIGN KEY ("owner") REFERENCES "public"."users"("id");',
      'CREATE UNIQUE INDEX "things_owner_key" ON "things" USING btree ("owner");',
      'ALTER TABLE "things" ADD COLUMN "n" integer NOT NULL;',
    ].join('--> statement-breakpoint\n');
    expect(reviewMigration(text).problems).toEqual([]);
    expect(refused(`${text}\nALTER TABLE "users" ADD CONSTRAINT "x" CHECK (true);`)).toEqual([
      'adds a constraint to an existing table',
    ]);
  });

  it('takes a contract naming the release whose code stopped using it, or a reviewed exception with its reason', () => {
    const contract = reviewMigration(
      '-- contract of 2850fba37757: form_sessions.ask_name has been read by nothing since that release.\nALTER TABLE "form_sessions" DROP COLUMN "ask_name";',
    );
    expect(contract.problems).toEqual([]);
    expect(contract.marker).toEqual({
      kind: 'contract',
      release: '2850fba37757',
      why: 'form_sessions.ask_name has been read by nothing since that release.',
    });
    const safe = reviewMigration(
      '-- safe with the previous release: the trigger is replaced inside the one migration transaction.\nDROP TRIGGER "t" ON "users";',
    );
    expect(safe.problems).toEqual([]);
    expect(safe.marker?.kind).toBe('safe');
  });

  it('refuses a marker with no reason, a release that is not a commit id, both markers, and a marker nothing needs', () => {
    const drop = 'DROP INDEX "x";';
    expect(reviewMigration(`-- contract of 2850fba: gone.\n${drop}`).problems).toEqual([expect.stringContaining('too short')]);
    expect(reviewMigration(`-- contract of v1.2: nothing reads x since v1.2 shipped to everyone.\n${drop}`).problems).toEqual([
      expect.stringContaining('drops'),
    ]);
    expect(
      reviewMigration(
        `-- contract of 2850fba: nothing reads x since that release shipped.\n-- safe with the previous release: and it is safe anyway, honestly.\n${drop}`,
      ).problems,
    ).toEqual([expect.stringContaining('both markers')]);
    expect(
      reviewMigration(
        '-- safe with the previous release: adding a nullable column is always safe.\nALTER TABLE "a" ADD COLUMN "b" text;',
      ).problems,
    ).toEqual([expect.stringContaining('no statement of it needs one')]);
  });

  it('splits statements without comments, string literals or dollar-quoted bodies', () => {
    expect(
      migrationStatements(
        "-- a comment; DROP TABLE x\nCREATE FUNCTION f() AS $body$ DROP TABLE y; $body$;--> statement-breakpoint\n/* DROP */ SELECT 'a;b';",
      ),
    ).toEqual(['CREATE FUNCTION f() AS $$', "SELECT ''"]);
  });
});
