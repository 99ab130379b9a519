import { isSessError } from '@sess/core';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@sess/db';
import { type LinkView, waitLink } from '@sess/forms';
import type { Hono } from 'hono';
import type { PageEnv, PageKit } from '../page-kit.ts';

/** How long one long-poll of the waiting page parks: under common proxy idle timeouts (30-60 s). */
export const PAGE_WAIT_MS = 25_000;

const WAIT_STATES = new Set(['open', 'answered', 'completed', 'withdrawn', 'lapsed', 'expired', 'full', 'closed']);

/**
 * `GET /s/:token/wait?revision=N&state=S`: the long-poll (JSON) of the follow script of the form
 * and the waiting page; answers once the link is no longer at that revision and state, or after
 * `waitMs` with where it stands.
 */
export function mountWait(app: Hono<PageEnv>, kit: PageKit, waitMs: number): void {
  app.get('/s/:token/wait', async (c) => {
    const token = c.req.param('token');
    const revision = Number(c.req.query('revision'));
    const state = c.req.query('state');
    if (!Number.isSafeInteger(revision) || revision < 1 || (state !== undefined && !WAIT_STATES.has(state))) {
      return c.json(
        { error: { code: 'INVALID_ARGUMENTS', message: 'revision must be a whole number from 1.', retryable: false } },
        400,
      );
    }
    try {
      const view = await waitLink(kit.runtime, token, {
        revision,
        state: state as LinkView['state'] | undefined,
        waitMs,
        signal: c.req.raw.signal,
      });
      return c.json({ state: view.state, revision: view.revision });
    } catch (error) {
      if (isSessError(error) && error.code === 'NOT_FOUND') {
        return c.json({ error: { code: 'NOT_FOUND', message: 'There is nothing at this address.', retryable: false } }, 404);
      }
      if (isDatabaseUnavailable(error)) {
        c.get('logger')?.warn({ event: 'pages.wait_unavailable', err: error }, 'answer page wait: database unavailable');
        return c.json({ error: { code: 'SESS_UNAVAILABLE', message: 'Try again in a moment.', retryable: true } }, 503, {
          'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
        });
      }
      c.get('logger')?.error({ event: 'pages.wait_error', err: error }, 'answer page wait failed');
      return c.json({ error: { code: 'INTERNAL', message: 'Try again in a moment.', retryable: true } }, 500);
    }
  });
}
