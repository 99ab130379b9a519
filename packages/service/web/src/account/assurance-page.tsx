import type { MessageKey } from '../i18n/catalog-types.ts';
import { useMessages } from '../i18n/render-scope.ts';
import { Isolate } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, ErrorSummary, Notice, toDocument } from './parts.tsx';
import type { AssuranceFloorChoice, AssuranceView, AssuranceWorkspaceView } from './view.ts';

/** Where the floors page lives, and where each form posts. */
export const ASSURANCE_PATH = '/account/assurance';
export const WORKSPACE_ASSURANCE_PATH = '/account/assurance/workspace';
export const ASSURANCE_FORM_FIELDS = { floor: 'floor', workspaceId: 'workspace_id' } as const;

type Choice = readonly [AssuranceFloorChoice, MessageKey, MessageKey];

/**
 * The levels a floor may be set to, each explained in one line. A person's forms are for that
 * person; an API key's for whom it names (or the owners).
 */
const PERSON_CHOICES: readonly Choice[] = [
  ['link', 'account.assurance.mine.link', 'account.assurance.mine.link.hint'],
  ['account', 'account.assurance.mine.account', 'account.assurance.mine.account.hint'],
  ['passkey', 'account.assurance.mine.passkey', 'account.assurance.mine.passkey.hint'],
];
const WORKSPACE_CHOICES: readonly Choice[] = [
  ['link', 'account.assurance.workspace.link', 'account.assurance.workspace.link.hint'],
  ['account', 'account.assurance.workspace.account', 'account.assurance.workspace.account.hint'],
  ['passkey', 'account.assurance.workspace.passkey', 'account.assurance.workspace.passkey.hint'],
];

function Choices({ prefix, choices, current }: { prefix: string; choices: readonly Choice[]; current: string }) {
  const m = useMessages();
  return (
    <>
      {choices.map(([value, label, line]) => (
        <>
          <div class="choice">
            <input
              type="radio"
              id={`${prefix}-${value}`}
              name={ASSURANCE_FORM_FIELDS.floor}
              value={value}
              checked={current === value}
              aria-describedby={`${prefix}-${value}-hint`}
            />
            <label for={`${prefix}-${value}`}>{m.t(label)}</label>
          </div>
          {/* One line on what the level means, under its choice (the stylesheet's `.choice + .hint`). */}
          <p class="hint" id={`${prefix}-${value}-hint`}>
            {m.t(line)}
          </p>
        </>
      ))}
    </>
  );
}

function WorkspaceFloor({ workspace, csrf }: { workspace: AssuranceWorkspaceView; csrf: string }) {
  const m = useMessages();
  const prefix = `ws-${workspace.id}`;
  if (workspace.role !== 'owner') {
    return (
      <li class="workspace">
        <span class="name">
          <Isolate text={workspace.name} />
        </span>
        <p class="muted">{m.t('account.assurance.memberView', { level: workspace.floor })}</p>
      </li>
    );
  }
  return (
    <li class="workspace">
      <form method="post" action={WORKSPACE_ASSURANCE_PATH}>
        <CsrfField token={csrf} />
        <input type="hidden" name={ASSURANCE_FORM_FIELDS.workspaceId} value={workspace.id} />
        <fieldset>
          <legend>
            <Isolate text={workspace.name} />
          </legend>
          <Choices prefix={prefix} choices={WORKSPACE_CHOICES} current={workspace.floor} />
        </fieldset>
        <div class="actions">
          <button type="submit" class="secondary" aria-label={m.t('account.assurance.saveFor', { workspace: workspace.name })}>
            {m.t('account.assurance.save')}
          </button>
        </div>
      </form>
    </li>
  );
}

/**
 * `/account/assurance`: who may answer the forms agents make. The person's own floor (for their
 * connected apps' forms), and each workspace's floor for forms made with its API keys (its
 * owners set it; members see it). An agent asking for less gets the floor.
 */
export function AssurancePage({ view, nonce }: { view: AssuranceView; nonce: string }) {
  const m = useMessages();
  const title = m.t('account.assurance.title');
  return (
    <Page title={view.error ? m.t('account.errors.pageTitle', { title }) : title} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <p>
          <a href="/account">{m.t('account.nav.back')}</a>
        </p>
        <h1>{m.t('account.assurance.heading')}</h1>
        <p class="lead">{m.t('account.assurance.lead')}</p>
        {view.notice ? <Notice message={view.notice} /> : null}
        <ErrorSummary id="assurance-error" items={view.error ? [{ message: view.error }] : []} />
        <form method="post" action={ASSURANCE_PATH}>
          <CsrfField token={view.csrf.person} />
          <fieldset>
            <legend>{m.t('account.assurance.mine.legend')}</legend>
            <Choices prefix="mine" choices={PERSON_CHOICES} current={view.personFloor} />
          </fieldset>
          <div class="actions">
            <button type="submit">{m.t('account.assurance.save')}</button>
          </div>
        </form>
        {view.workspaces.length > 0 ? (
          <>
            <h2 id="keys-floor-heading">{m.t('account.assurance.workspace.heading')}</h2>
            <p class="hint">{m.t('account.assurance.workspace.lead')}</p>
            <ul class="plain-list" aria-labelledby="keys-floor-heading">
              {view.workspaces.map((workspace) => (
                <WorkspaceFloor workspace={workspace} csrf={view.csrf.workspace} />
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </Page>
  );
}

/** The floors page as an HTML document string. */
export function renderAssurancePage(view: AssuranceView, nonce: string): string {
  return toDocument(<AssurancePage view={view} nonce={nonce} />);
}
