import { checkCsrfToken, csrfToken, isSessError } from '@sess/core';
import { type ApiKeysView, type ApiKeyView, renderApiKeysPage, renderMessagePage } from '@sess/web';
import type { Context, Hono } from 'hono';
import { API_KEY_NAME_MAX, createApiKey } from '../api-keys/create-api-key.ts';
import { listApiKeys } from '../api-keys/list-api-keys.ts';
import { revokeApiKey } from '../api-keys/revoke-api-key.ts';
import { listWorkspacesForUser, type UserWorkspace } from '../workspaces/list-workspaces-for-user.ts';
import type { AccountRoutesDeps, AccountsEnv } from './deps.ts';
import { messagesOf, readForm, refusedForm, sendPage } from './respond.ts';

type KeysExtras = Pick<ApiKeysView, 'createdKey' | 'form' | 'fieldErrors' | 'notice' | 'error'>;

/**
 * `/account/keys`: the API keys of every workspace the person owns (owners manage a
 * workspace's keys; members do not), made and revoked through the api-keys verbs. A new key's
 * value is in the one response that creates it, never again.
 */
export function mountApiKeyRoutes(app: Hono<AccountsEnv>, deps: AccountRoutesDeps): void {
  const ctx = { db: deps.db, now: deps.now };

  async function ownedWorkspaces(userId: string): Promise<UserWorkspace[]> {
    return (await listWorkspacesForUser(deps.db, userId)).filter((w) => w.role === 'owner');
  }

  async function page(c: Context<AccountsEnv>, status: number, extras: KeysExtras = {}): Promise<Response> {
    const session = c.get('session');
    const workspaces = await ownedWorkspaces(session.userId);
    const keys: ApiKeyView[] = [];
    for (const workspace of workspaces) {
      for (const key of await listApiKeys({ ctx, workspaceId: workspace.id })) {
        keys.push({ ...key, workspaceName: workspace.name });
      }
    }
    keys.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const view: ApiKeysView = {
      email: session.email,
      workspaces,
      keys,
      csrf: {
        create: csrfToken(deps.secret, session.sessionId, 'api-keys:create'),
        revoke: csrfToken(deps.secret, session.sessionId, 'api-keys:revoke'),
        signout: csrfToken(deps.secret, session.sessionId, 'signout'),
      },
      ...extras,
    };
    return sendPage(c, status, (nonce) => renderApiKeysPage(view, nonce));
  }

  app.get('/account/keys', (c) => page(c, 200));

  app.post('/account/keys', async (c) => {
    const session = c.get('session');
    const form = await readForm(c);
    if (!checkCsrfToken(deps.secret, session.sessionId, 'api-keys:create', form._csrf)) return refusedForm(c, '/account/keys');
    const name = form.name ?? '';
    const workspaceId = form.workspace_id ?? '';
    const typed = { name, workspaceId };
    if (!(await ownedWorkspaces(session.userId)).some((w) => w.id === workspaceId)) {
      return page(c, 400, { form: typed, fieldErrors: { workspaceId: messagesOf(c).t('account.keys.workspaceRequired') } });
    }
    try {
      const created = await createApiKey({ ctx, input: { workspaceId, name, createdBy: session.userId } });
      c.get('logger').info(
        { event: 'accounts.api_key.created', userId: session.userId, workspaceId, apiKeyId: created.id },
        'API key created',
      );
      return page(c, 201, { createdKey: { name: created.name, key: created.key, prefix: created.prefix } });
    } catch (error) {
      if (isSessError(error) && error.code === 'INVALID_ARGUMENTS') {
        const m = messagesOf(c);
        const tooLong = name.trim().length > API_KEY_NAME_MAX;
        return page(c, 400, {
          form: typed,
          fieldErrors: {
            name: tooLong ? m.t('account.keys.nameTooLong', { max: API_KEY_NAME_MAX }) : m.t('account.keys.nameRequired'),
          },
        });
      }
      throw error;
    }
  });

  app.post('/account/keys/:id/revoke', async (c) => {
    const session = c.get('session');
    const form = await readForm(c);
    if (!checkCsrfToken(deps.secret, session.sessionId, 'api-keys:revoke', form._csrf)) return refusedForm(c, '/account/keys');
    const apiKeyId = c.req.param('id');
    // The key must sit in a workspace this person owns; anything else is "no such key".
    for (const workspace of await ownedWorkspaces(session.userId)) {
      try {
        await revokeApiKey({ ctx, workspaceId: workspace.id, apiKeyId });
        c.get('logger').info(
          { event: 'accounts.api_key.revoked', userId: session.userId, workspaceId: workspace.id, apiKeyId },
          'API key revoked',
        );
        return page(c, 200, { notice: messagesOf(c).t('account.keys.revoked') });
      } catch (error) {
        if (!(isSessError(error) && error.code === 'NOT_FOUND')) throw error;
      }
    }
    const m = messagesOf(c);
    return sendPage(c, 404, (nonce) =>
      renderMessagePage(
        {
          title: m.t('account.keys.notFoundTitle'),
          message: m.t('account.keys.notFoundMessage'),
          link: { href: '/account/keys', label: m.t('account.overview.link.apiKeys') },
          tone: 'error',
        },
        nonce,
      ),
    );
  });
}
