import { Isolate } from '../isolate.tsx';
import { Page } from '../layout.tsx';
import { AccountHeader } from './account-page.tsx';
import { CsrfField, FormError, Notice, toDocument } from './parts.tsx';
import type { AssuranceFloorChoice, AssuranceView, AssuranceWorkspaceView } from './view.ts';

/** Where the floors page lives, and where each form posts. */
export const ASSURANCE_PATH = '/account/assurance';
export const WORKSPACE_ASSURANCE_PATH = '/account/assurance/workspace';
export const ASSURANCE_FORM_FIELDS = { floor: 'floor', workspaceId: 'workspace_id' } as const;

/**
 * The levels a floor may be set to, each explained in one line. A person's forms are for that
 * person; an API key's for whom it names (or the owners).
 */
const PERSON_CHOICES: readonly (readonly [AssuranceFloorChoice, string, string])[] = [
  ['link', 'Anyone with the link', 'Whoever holds the link can answer: you, but also your agent or anyone it reaches.'],
  ['account', 'My sign-in', 'Only you can answer, signed in to Sess on that browser; the link alone is not enough.'],
  [
    'passkey',
    'My passkey',
    'Only you can answer, signed in, confirming each answer with your passkey (add one under Passkeys first).',
  ],
];
const WORKSPACE_CHOICES: readonly (readonly [AssuranceFloorChoice, string, string])[] = [
  ['link', 'Anyone with the link', 'Whoever holds the link can answer, including the program that made the form.'],
  [
    'account',
    'The sign-in of the member it is for',
    'Only the member the form names (by default the owners) can answer, signed in to Sess.',
  ],
  [
    'passkey',
    'The passkey of the member it is for',
    'Only the member the form names can answer, signed in, confirming each answer with their passkey.',
  ],
];

/** A label for a level, where it is shown read-only (a member's view of a workspace). */
function levelLabel(level: string): string {
  if (level === 'link') return 'anyone with the link';
  if (level === 'account') return 'the sign-in of the member it is for';
  if (level === 'passkey') return 'the passkey of the member it is for';
  return level;
}

function Choices({
  prefix,
  choices,
  current,
}: {
  prefix: string;
  choices: readonly (readonly [AssuranceFloorChoice, string, string])[];
  current: string;
}) {
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
            <label for={`${prefix}-${value}`}>{label}</label>
          </div>
          {/* One line on what the level means, under its choice (the stylesheet's `.choice + .hint`). */}
          <p class="hint" id={`${prefix}-${value}-hint`}>
            {line}
          </p>
        </>
      ))}
    </>
  );
}

function WorkspaceFloor({ workspace, csrf }: { workspace: AssuranceWorkspaceView; csrf: string }) {
  const prefix = `ws-${workspace.id}`;
  if (workspace.role !== 'owner') {
    return (
      <li class="workspace">
        <span class="name">
          <Isolate text={workspace.name} />
        </span>
        <p class="muted">Forms made with its API keys need: {levelLabel(workspace.floor)}. Its owners set this.</p>
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
          <button type="submit" class="secondary" aria-label={`Save for ${workspace.name}`}>
            Save
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
  return (
    <Page title={view.error ? 'Error: Who may answer · Sess' : 'Who may answer · Sess'} nonce={nonce}>
      <AccountHeader email={view.email} signoutCsrf={view.csrf.signout} />
      <div class="card">
        <p>
          <a href="/account">← Your account</a>
        </p>
        <h1>Who may answer</h1>
        <p class="lead">
          An agent says who may answer each form it makes. Here you set the least it gets: asking for less gets your choice
          instead, asking for more is allowed.
        </p>
        {view.notice ? <Notice message={view.notice} /> : null}
        {view.error ? <FormError id="assurance-error" message={view.error} /> : null}
        <form method="post" action={ASSURANCE_PATH}>
          <CsrfField token={view.csrf.person} />
          <fieldset>
            <legend>Forms my agents make need</legend>
            <Choices prefix="mine" choices={PERSON_CHOICES} current={view.personFloor} />
          </fieldset>
          <div class="actions">
            <button type="submit">Save</button>
          </div>
        </form>
        {view.workspaces.length > 0 ? (
          <>
            <h2 id="keys-floor-heading">Forms made with API keys</h2>
            <p class="hint">Programs such as the local Sess MCP server use a workspace’s API keys; their forms need:</p>
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
