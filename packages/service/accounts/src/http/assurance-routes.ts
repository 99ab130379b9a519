import { checkCsrfToken, csrfToken, isSessError } from '@sess/core';
import {
  ASSURANCE_FORM_FIELDS,
  ASSURANCE_PATH,
  type AssuranceView,
  renderAssurancePage,
  renderMessagePage,
  WORKSPACE_ASSURANCE_PATH,
} from '@sess/web';
import type { Context, Hono } from 'hono';
import {
  isFloorChoice,
  readAssuranceFloors,
  setPersonAssuranceFloor,
  setWorkspaceApiKeyFloor,
} from '../assurance/assurance-floors.ts';
import type { AccountRoutesDeps, AccountsEnv } from './deps.ts';
import { messagesOf, readForm, refusedForm, sendPage } from './respond.ts';

/** The paths these routes answer (signed in only). */
export const ASSURANCE_PATHS = [ASSURANCE_PATH, WORKSPACE_ASSURANCE_PATH];

/**
 * `/account/assurance` (issue 37): the person's own floor for the forms their agents make, and
 * the API-key floor of each workspace (its owners set it; members see it). Both posts carry a
 * CSRF token of their own.
 */
export function mountAssuranceRoutes(app: Hono<AccountsEnv>, deps: AccountRoutesDeps): void {
  async function page(c: Context<AccountsEnv>, status: number, extra: Pick<AssuranceView, 'notice' | 'error'> = {}) {
    const session = c.get('session');
    const floors = await readAssuranceFloors(deps.db, session.userId);
    const view: AssuranceView = {
      email: session.email,
      personFloor: floors.personFloor,
      workspaces: floors.workspaces,
      csrf: {
        signout: csrfToken(deps.secret, session.sessionId, 'signout'),
        person: csrfToken(deps.secret, session.sessionId, 'assurance:person'),
        workspace: csrfToken(deps.secret, session.sessionId, 'assurance:workspace'),
      },
      ...extra,
    };
    return sendPage(c, status, (nonce) => renderAssurancePage(view, nonce));
  }

  app.get(ASSURANCE_PATH, (c) => page(c, 200));

  app.post(ASSURANCE_PATH, async (c) => {
    const session = c.get('session');
    const form = await readForm(c);
    if (!checkCsrfToken(deps.secret, session.sessionId, 'assurance:person', form._csrf)) return refusedForm(c, ASSURANCE_PATH);
    const floor = form[ASSURANCE_FORM_FIELDS.floor];
    if (!isFloorChoice(floor)) return page(c, 400, { error: messagesOf(c).t('account.assurance.invalid') });
    await setPersonAssuranceFloor(deps.db, session.userId, floor);
    c.get('logger').info({ event: 'accounts.assurance_floor.set', userId: session.userId, floor }, 'assurance floor set');
    return page(c, 200, { notice: messagesOf(c).t('account.assurance.savedPerson', { floor }) });
  });

  app.post(WORKSPACE_ASSURANCE_PATH, async (c) => {
    const session = c.get('session');
    const form = await readForm(c);
    if (!checkCsrfToken(deps.secret, session.sessionId, 'assurance:workspace', form._csrf)) return refusedForm(c, ASSURANCE_PATH);
    const floor = form[ASSURANCE_FORM_FIELDS.floor];
    const workspaceId = form[ASSURANCE_FORM_FIELDS.workspaceId] ?? '';
    if (!isFloorChoice(floor)) return page(c, 400, { error: messagesOf(c).t('account.assurance.invalid') });
    try {
      await setWorkspaceApiKeyFloor(deps.db, { userId: session.userId, workspaceId, floor });
    } catch (error) {
      if (!(isSessError(error) && error.code === 'NOT_FOUND')) throw error;
      return sendPage(c, 404, (nonce) =>
        renderMessagePage(
          {
            title: messagesOf(c).t('account.refused.title'),
            message: messagesOf(c).t('account.assurance.notOwner'),
            link: { href: ASSURANCE_PATH, label: messagesOf(c).t('account.overview.link.assurance') },
            tone: 'error',
          },
          nonce,
        ),
      );
    }
    c.get('logger').info(
      { event: 'accounts.api_key_assurance_floor.set', userId: session.userId, workspaceId, floor },
      'API-key assurance floor set',
    );
    return page(c, 200, { notice: messagesOf(c).t('account.assurance.savedWorkspace') });
  });
}
