import { newId, SessError } from '@sess/core';
import { type Db, memberships, type Tx } from '@sess/db';
import { checkPassword } from '../passwords/check-password.ts';
import { hashPassword } from '../passwords/password-hash.ts';
import { type CreatedUser, insertUserWithWorkspace } from '../users/create-user.ts';
import { normalizeEmail } from '../users/normalize-email.ts';
import type { SignupPolicy } from './signup-policy.ts';
import { consumeSignupLink } from './signup-tokens.ts';

/** What is wrong with each sign-up field, by field name: every problem at once, none when the input is usable. */
export interface SignupProblems {
  email?: string;
  password?: string;
}

/**
 * Checks e-mail and password together; throws `INVALID_ARGUMENTS` naming every bad field in
 * `details.problems` (`field` and the message are the first one's, for callers that show one).
 */
export function checkSignupInput(input: { email: unknown; password: unknown }): { email: string; password: string } {
  const problems: SignupProblems = {};
  const email = normalizeEmail(input.email);
  if (!email) problems.email = 'Enter an email address such as name@example.com.';
  const password = typeof input.password === 'string' ? input.password : '';
  const passwordProblem = checkPassword(password);
  if (passwordProblem) problems.password = passwordProblem;
  if (email === null || passwordProblem) {
    const [name, message] = Object.entries(problems)[0] as [string, string];
    throw new SessError('INVALID_ARGUMENTS', message, { field: `/${name}`, problems });
  }
  return { email, password };
}

/** The per-field problems an `INVALID_ARGUMENTS` from `checkSignupInput` carries. */
export function signupProblemsOf(error: SessError): SignupProblems {
  const problems = error.details['problems'];
  if (problems && typeof problems === 'object') return problems as SignupProblems;
  return error.details.field === '/email' ? { email: error.message } : { password: error.message };
}

/**
 * Creates an account from the web sign-up form: the user, their personal workspace and owner
 * membership (and, with an invite, a member seat in the inviting workspace), in one
 * transaction. Without a link, `policy` must be `open` (else `SIGNUP_NOT_ALLOWED`); with one,
 * the link is used up in the same transaction (else `LINK_CLOSED`).
 */
export async function signUp(
  db: Db,
  input: { email: unknown; password: unknown; policy: SignupPolicy; token?: string | undefined; now: Date },
): Promise<CreatedUser & { via: 'open' | 'first_account' | 'invite' }> {
  const { email, password } = checkSignupInput(input);
  if (!input.token && input.policy !== 'open') {
    throw new SessError(
      'SIGNUP_NOT_ALLOWED',
      input.policy === 'invite' ? 'Creating an account needs an invite link.' : 'New accounts are created by an administrator.',
    );
  }
  // The slow hash runs before the transaction opens, so no connection waits on it.
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    if (!input.token) return { ...(await insertUserWithWorkspace(tx, { email, passwordHash, now: input.now })), via: 'open' };
    // The user row must exist before the link can record who used it, but the whole
    // transaction rolls back if the link turns out to be spent.
    const created = await insertUserWithWorkspace(tx, { email, passwordHash, now: input.now });
    const link = await consumeSignupLink(tx, input.token, created.userId, input.now);
    if (link.workspaceId) {
      await insertInviteMembership(tx, created.userId, link.workspaceId, input.now);
    }
    return { ...created, via: link.kind };
  });
}

async function insertInviteMembership(tx: Tx, userId: string, workspaceId: string, now: Date): Promise<void> {
  // A moment after the personal membership, so the personal workspace stays first in lists.
  await tx
    .insert(memberships)
    .values({ id: newId('membership'), workspaceId, userId, role: 'member', createdAt: new Date(now.getTime() + 1) });
}

/**
 * Creates an account for `sess user create` (an operator at the console): no policy, no link.
 * Same checks and the same one-transaction write as the web sign-up.
 */
export async function createUserAccount(db: Db, input: { email: unknown; password: unknown; now: Date }): Promise<CreatedUser> {
  const { email, password } = checkSignupInput(input);
  const passwordHash = await hashPassword(password);
  return db.transaction((tx) => insertUserWithWorkspace(tx, { email, passwordHash, now: input.now }));
}
