import { type LinkView, openLink, recordLinkOpened } from '@sess/forms';
import type { Hono } from 'hono';
import { gateView } from '../answerer-gate.ts';
import type { PageEnv, PageKit } from '../page-kit.ts';
import { RECEIPT_CONTENT_TYPE, receiptDownload } from '../receipt-download.ts';
import { pagePaths } from '../to-page-view.ts';

/**
 * `GET /s/:token` (the link's current state as a page) and `GET /s/:token/receipt` (its answer's
 * receipt). A form above `link` shows either only to a browser signed in as an account it is for
 * (answerer-gate.ts): the link alone gets the sign-in page, another account "for someone else".
 */
export function mountLinkPage(app: Hono<PageEnv>, kit: PageKit): void {
  const { runtime } = kit;

  app.get('/s/:token', async (c) => {
    const token = c.req.param('token');
    let view: LinkView;
    try {
      view = await openLink(runtime, token);
      const gate = await gateView(c, kit.accounts, view, token, runtime.publicUrl);
      if (gate.turn) return kit.turnAway(c, gate.turn);
      // The person's browser showing the page (not a link preview): the form's `opened` event.
      if (c.req.header('sec-fetch-dest') === 'document' && view.kind !== 'respondent') {
        await recordLinkOpened(runtime, view.sessionId);
      }
      if (view.kind === 'ask') {
        const own = await kit.rememberedRespondent(c, view, gate.way);
        if (own) return c.redirect(pagePaths(own).page, 303);
      }
    } catch (error) {
      return kit.sendError(c, error);
    }
    return kit.sendPage(c, kit.pageView(view, token), 200);
  });

  // The receipt of the answer the page shows, as a file to keep. The link is the capability.
  app.get('/s/:token/receipt', async (c) => {
    const token = c.req.param('token');
    let download: ReturnType<typeof receiptDownload>;
    try {
      const view = await openLink(runtime, token);
      const gate = await gateView(c, kit.accounts, view, token, runtime.publicUrl);
      if (gate.turn) return kit.turnAway(c, gate.turn);
      download = receiptDownload(view);
    } catch (error) {
      return kit.sendError(c, error);
    }
    // Nothing to download (yet, or any more): the page says where the link stands.
    if (!download) return c.redirect(pagePaths(token).page, 303);
    return c.body(download.body, 200, {
      'Content-Type': RECEIPT_CONTENT_TYPE,
      'Content-Disposition': `attachment; filename="${download.fileName}"`,
    });
  });
}
