import { isSessError } from '@sess/core';
import { extendLink, openLink, startRespondent } from '@sess/forms';
import { serializeCookie } from '@sess/web';
import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { gateView, turnFor } from '../answerer-gate.ts';
import { type PageEnv, type PageKit, RESPONDENT_COOKIE } from '../page-kit.ts';
import { readPostedForm } from '../read-posted-form.ts';
import { pagePaths } from '../to-page-view.ts';

/** A post of one button (CSRF token only). */
const ACTION_BODY_LIMIT_BYTES = 16 * 1024;

/** Seconds a respondent cookie lives: until the respondent page ends, within the 400-day cookie cap. */
function cookieSeconds(expiresAt: Date, now: Date): number {
  return Math.max(1, Math.min(400 * 86_400, Math.floor((expiresAt.getTime() - now.getTime()) / 1000)));
}

/**
 * The two buttons besides the answer: `POST /s/:token/extend` asks for more time on a lapsed
 * link; `POST /s/:token/start` starts this browser's respondent page of an Ask (and remembers it
 * in a cookie scoped to the Ask's path, so a second tab goes back to the same page); an Ask with
 * named respondents starts only the signed-in person's own page, one per person.
 */
export function mountLinkActions(app: Hono<PageEnv>, kit: PageKit, secureCookieFor: (host: string | undefined) => boolean): void {
  const { runtime } = kit;
  const limit = bodyLimit({ maxSize: ACTION_BODY_LIMIT_BYTES, onError: (c) => kit.tooLarge(c) });

  app.post('/s/:token/extend', limit, async (c) => {
    const token = c.req.param('token');
    const form = await readPostedForm(c.req.raw);
    try {
      const current = await openLink(runtime, token);
      if (!form || kit.isForged(c, 'extend', token, current.revision, form.control.csrf)) return kit.refused(c, token, 403);
      await extendLink(runtime, token);
      return c.redirect(pagePaths(token).page, 303);
    } catch (error) {
      if (isSessError(error) && error.code === 'LINK_CLOSED') return kit.showCurrent(c, token, 410);
      return kit.sendError(c, error);
    }
  });

  app.post('/s/:token/start', limit, async (c) => {
    const token = c.req.param('token');
    const form = await readPostedForm(c.req.raw);
    try {
      const ask = await openLink(runtime, token);
      if (!form || kit.isForged(c, 'start', token, ask.revision, form.control.csrf)) return kit.refused(c, token, 403);
      // An Ask with named respondents: only a signed-in person it is for starts (nothing is written otherwise).
      const gate = await gateView(c, kit.accounts, ask, token, runtime.publicUrl);
      if (gate.turn) return kit.turnAway(c, gate.turn);
      // A double click or a second tab (for a named person, any browser) goes back to the page they already have.
      const own = await kit.rememberedRespondent(c, ask, gate.way);
      if (own) return c.redirect(pagePaths(own).page, 303);
      const started = await startRespondent(runtime, token, gate.way.via === 'link' ? gate.way.userId : undefined);
      // A named person's page is found by their account, not by a cookie that another account on this browser would share.
      if (ask.assurance !== 'link') return c.redirect(pagePaths(started.respondentToken).page, 303);
      c.header(
        'Set-Cookie',
        serializeCookie(RESPONDENT_COOKIE, started.respondentToken, {
          path: pagePaths(token).page,
          secure: secureCookieFor(c.req.header('host')),
          maxAgeSeconds: cookieSeconds(new Date(started.expiresAt), runtime.now()),
        }),
        { append: true },
      );
      return c.redirect(pagePaths(started.respondentToken).page, 303);
    } catch (error) {
      // The Ask's page says every place is taken (or, if one just came back, offers Start again).
      if (isSessError(error) && error.code === 'ASK_FULL') return kit.showCurrent(c, token, 409);
      const turn = isSessError(error)
        ? turnFor(error, token, kit.accounts.isLinkHost(c.req.header('host')), runtime.publicUrl)
        : undefined;
      if (turn) return kit.turnAway(c, turn);
      if (isSessError(error) && (error.code === 'LINK_CLOSED' || error.code === 'INVALID_STATE'))
        return kit.showCurrent(c, token, 410);
      return kit.sendError(c, error);
    }
  });
}
