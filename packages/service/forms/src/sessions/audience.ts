import { SessError } from '@sess/core';
import { type DbOrTx, queryRows } from '@sess/db';
import { type AssuranceChoice, type AssuranceLevel, atLeast } from '@sess/surface';
import { sql } from 'drizzle-orm';
import type { FormsRuntime } from '../runtime/forms-runtime.ts';
import type { FormMaker, WorkspaceContext } from './context.ts';
import { type FloorOf, floorKey, readFloor } from './floor-reader.ts';
import { FloorMovedError, type FormAudience } from './form-audience.ts';

export type { FormAudience } from './form-audience.ts';

/*
 * Who may answer a new form (issue 37), decided in ONE place for every create (/mcp, /v1,
 * sess-mcp and OpenClaw all end here): the level the agent asked for, raised to its maker's
 * floor (a person's own `users.assurance_floor` for their OAuth connections, the workspace's
 * `api_key_assurance_floor` for its API keys; asking for less is never an error), and, above
 * `link`, the accounts it is for.
 */

/** What the agent asked for (validated arguments). */
export interface AskedAudience {
  assurance?: AssuranceChoice | undefined;
  for?: string[] | undefined;
  /** An Ask's named respondents (`respondents.people`): the form is for them, at `account` at least. */
  people?: string[] | undefined;
}

/** Where each way of naming members points its errors. */
const PEOPLE_AT = '/respondents/people';

/** A create without a maker is the workspace's own (an API key's): its owners decide. */
const WORKSPACE: FormMaker = { kind: 'api_key' };

/**
 * A maker's floor: in the caller's transaction when it has one (uncached: it may have changed
 * it), else through the runtime's floor reader (cached while every change is heard), or straight
 * from the database when `fresh`. Read outside a transaction, the floor seen travels with the
 * create, whose statement checks it (`FormAudience.floorSeen`).
 */
async function floorOf(
  ctx: WorkspaceContext,
  of: FloorOf,
  fresh: boolean,
): Promise<{ floor: AssuranceLevel; seen?: FormAudience['floorSeen'] }> {
  const db = ctx.tx ?? ctx.runtime.database.db;
  const floor = ctx.tx || fresh ? await readFloor(db, of) : await ctx.runtime.floors.read(of);
  if (floor === undefined) {
    if (of.kind === 'person') return { floor: 'link' };
    throw new SessError('NOT_FOUND', `No workspace ${of.workspaceId}.`);
  }
  return ctx.tx ? { floor } : { floor, seen: { key: floorKey(of), floor } };
}

/** The members named by e-mail, in the order given; a name that is no member is refused with its pointer. */
async function namedMembers(db: DbOrTx, workspaceId: string, emails: string[], at = '/for'): Promise<string[]> {
  const wanted = emails.map((email) => email.trim().toLowerCase());
  const rows = await queryRows<{ id: string; email: string }>(
    db,
    sql`select u.id, lower(u.email) as email
          from memberships m join users u on u.id = m.user_id
         where m.workspace_id = ${workspaceId}
           and lower(u.email) in (select json_array_elements_text(${JSON.stringify(wanted)}::json))`,
  );
  const byEmail = new Map(rows.map((row) => [row.email, row.id]));
  return wanted.map((email, i) => {
    const id = byEmail.get(email);
    if (id === undefined) {
      // The address is the agent's own input; it is not repeated, so it reaches no log.
      const otherwise = at === '/for' ? ", or leave for out: the form is then for the workspace's owners" : '';
      throw new SessError(
        'INVALID_ARGUMENTS',
        `${at}/${i} names no member of this workspace. Name members by the e-mail they sign in with (an owner invites others on /account)${otherwise}.`,
        { field: `${at}/${i}` },
      );
    }
    return id;
  });
}

/**
 * The accounts of an Ask's backup people (`respondents.escalate.to`), in the order given.
 * @throws SessError `INVALID_ARGUMENTS` at `/respondents/escalate/to/<i>` (no member by that e-mail).
 */
export async function backupMembers(ctx: WorkspaceContext, emails: string[]): Promise<string[]> {
  return namedMembers(ctx.tx ?? ctx.runtime.database.db, ctx.workspaceId, emails, '/respondents/escalate/to');
}

async function owners(db: DbOrTx, workspaceId: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select user_id as id from memberships where workspace_id = ${workspaceId} and role = 'owner' order by created_at, user_id`,
  );
  return rows.map((row) => row.id);
}

/**
 * The level and the accounts of a new form made in `ctx`; an Ask naming `people` is for them, at
 * `account` or above, whoever makes it (read in the caller's transaction when
 * it has one; `fresh`: the floor from the database, not the process's cache — for a refusal,
 * which no store would check).
 * @throws SessError `INVALID_ARGUMENTS` at `/for` (a person's own form names nobody else) or
 * `/for/<i>` or `/respondents/people/<i>` (no member by that e-mail); `NOT_FOUND` for no such workspace.
 */
export async function decideAudience(
  ctx: WorkspaceContext,
  asked: AskedAudience,
  options: { fresh?: boolean } = {},
): Promise<FormAudience> {
  const fresh = options.fresh === true;
  const db = ctx.tx ?? ctx.runtime.database.db;
  const maker = ctx.madeBy ?? WORKSPACE;
  if (asked.people !== undefined) {
    // Named respondents: whoever makes the Ask, it is for the people it names, each signed in.
    const of: FloorOf =
      maker.kind === 'person' ? { kind: 'person', userId: maker.userId } : { kind: 'workspace', workspaceId: ctx.workspaceId };
    const { floor, seen } = await floorOf(ctx, of, fresh);
    const assurance = atLeast(atLeast(asked.assurance ?? 'link', floor), 'account');
    return { assurance, forUserIds: await namedMembers(db, ctx.workspaceId, asked.people, PEOPLE_AT), floorSeen: seen };
  }
  if (maker.kind === 'person') {
    if (asked.for !== undefined) {
      throw new SessError(
        'INVALID_ARGUMENTS',
        "/for names members for a form made with a workspace API key. A form made through a person's own connection is for that person: leave for out.",
        { field: '/for' },
      );
    }
    const { floor, seen } = await floorOf(ctx, { kind: 'person', userId: maker.userId }, fresh);
    const assurance = atLeast(asked.assurance ?? 'link', floor);
    return { assurance, forUserIds: assurance === 'link' ? null : [maker.userId], floorSeen: seen };
  }
  const { floor, seen } = await floorOf(ctx, { kind: 'workspace', workspaceId: ctx.workspaceId }, fresh);
  const assurance = atLeast(asked.assurance ?? 'link', floor);
  if (assurance === 'link') return { assurance, forUserIds: null, floorSeen: seen };
  const forUserIds = asked.for ? await namedMembers(db, ctx.workspaceId, asked.for) : await owners(db, ctx.workspaceId);
  return { assurance, forUserIds, floorSeen: seen };
}

/**
 * What the idempotency hash of a create names of the ask: only what differs from a plain
 * `link` form, so a request without these fields keeps the hash it had before they existed.
 */
export function askedForHash(asked: AskedAudience): Record<string, unknown> {
  return {
    ...(asked.assurance !== undefined && asked.assurance !== 'link' ? { assurance: asked.assurance } : {}),
    ...(asked.for !== undefined ? { for: asked.for.map((email) => email.trim().toLowerCase()) } : {}),
  };
}

/** Tries of a create whose maker's floor keeps moving under it (the second already reads the database). */
const FLOOR_TRIES = 3;

/**
 * Runs `create` (decide, build and store a form), again when its statement found that its
 * maker's floor moved since the process cached it (`FloorMovedError`: nothing was stored). The
 * stale entry is forgotten first, so the next try decides under the floor as it is now.
 */
export async function withCurrentFloor<T>(runtime: FormsRuntime, create: () => Promise<T>): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await create();
    } catch (error) {
      if (!(error instanceof FloorMovedError) || tried >= FLOOR_TRIES) throw error;
      runtime.floors.forget(error.floorKey);
    }
  }
}
