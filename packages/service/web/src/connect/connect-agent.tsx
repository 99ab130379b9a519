import type { Child } from 'hono/jsx';
import { useMessages } from '../i18n/render-scope.ts';
import type { ConnectView, ServedPackageUrls } from './connect-view.ts';
import { CopyButton } from './copy-button.tsx';
import { sentence } from './sentence.tsx';

/** The id of the MCP URL's text (the Copy button names it; its status line is `<id>-status`). */
export const MCP_URL_ID = 'mcp-url';

/** A command or file as it is typed: wraps inside its own box (never widens the page), keeps its indentation. */
function Code({ text }: { text: string }) {
  return (
    <pre class="code">
      <code>{text}</code>
    </pre>
  );
}

/** One client's steps, folded: the list of clients stays short on a phone, and works without JavaScript. */
function Client({ name, children }: { name: string; children: Child }) {
  return (
    <details class="client">
      <summary>{name}</summary>
      <div class="client-steps">{children}</div>
    </details>
  );
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * The registry line of a package: the line to use once it is published, under the one that works
 * today (the tarball this server serves); the only line, marked not yet working, when the server
 * serves none.
 */
function Registry({ packages, line }: { packages: ServedPackageUrls | undefined; line: string }) {
  const m = useMessages();
  return (
    <>
      <p class="muted">
        {packages ? m.t('home.connect.published') : sentence(m, 'home.connect.unbuilt', { command: <code>npm run build</code> })}
      </p>
      <Code text={line} />
    </>
  );
}

/**
 * "Connect your agent": the MCP URL with a Copy button, then how each client is given it. The
 * same block on the home page and the account page; keep its words in step with the README's
 * "Connect your agent". Every string is escaped by hono/jsx (the URL is the operator's
 * `PUBLIC_URL`, but nothing here is trusted to be markup).
 */
export function ConnectAgent({ view }: { view: ConnectView }) {
  const m = useMessages();
  const url = view.mcpUrl;
  const packages = view.packages;
  return (
    <section class="connect" aria-labelledby="connect-heading">
      <h2 id="connect-heading">{m.t('home.connect.title')}</h2>
      <p>{sentence(m, 'home.connect.intro', { allow: <strong>{m.t('oauth.consent.allow')}</strong> })}</p>
      <div class="copy-box">
        <code id={MCP_URL_ID} class="copy-text">
          {url}
        </code>
        <CopyButton target={MCP_URL_ID} />
      </div>
      <p id={`${MCP_URL_ID}-status`} class="muted copy-status" role="status" aria-live="polite" />
      <Client name="Claude Code">
        <p>{m.t('home.connect.claudeCode')}</p>
        <Code text={`claude mcp add --transport http sess ${url}\nclaude mcp login sess`} />
      </Client>
      <Client name="Cursor">
        <p>
          {sentence(m, 'home.connect.cursor', {
            project: <code>.cursor/mcp.json</code>,
            global: <code>~/.cursor/mcp.json</code>,
          })}
        </p>
        <Code text={json({ mcpServers: { sess: { url } } })} />
      </Client>
      <Client name="Cline">
        <p>
          {sentence(m, 'home.connect.cline', {
            configure: <em lang="en">Configure MCP Servers</em>,
            file: <code>cline_mcp_settings.json</code>,
          })}
        </p>
        <Code text={json({ mcpServers: { sess: { type: 'streamableHttp', url } } })} />
      </Client>
      <Client name="VS Code">
        <p>{sentence(m, 'home.connect.vscode', { file: <code>.vscode/mcp.json</code> })}</p>
        <Code text={json({ servers: { sess: { type: 'http', url } } })} />
      </Client>
      <Client name="claude.ai, ChatGPT, Grok">
        {view.reachableByHostedClients ? null : (
          <div class="banner warn" role="note">
            <p>
              {sentence(m, 'home.connect.hostedUnreachable', {
                url: <code>{view.publicUrl}</code>,
                variable: <code>PUBLIC_URL</code>,
              })}
            </p>
          </div>
        )}
        <p>
          {sentence(m, 'home.connect.hosted', {
            claude: <em lang="en">Add custom connector</em>,
            chatgpt: <em lang="en">Add custom MCP server</em>,
            grokNew: <em lang="en">New Connector</em>,
            grokCustom: <em lang="en">Custom</em>,
          })}
        </p>
        <Code text={`grok mcp add --transport http sess ${url}`} />
      </Client>
      <Client name={m.t('home.connect.localName')}>
        <p>
          {sentence(m, 'home.connect.local', {
            keys: <a href={view.apiKeysHref}>{m.t('home.connect.apiKeys')}</a>,
            variable: <code>SESS_API_KEY</code>,
          })}
        </p>
        {packages ? <Code text={`SESS_API_ORIGIN=${view.publicUrl} npx -y ${packages.sessMcp}`} /> : null}
        <Registry packages={packages} line={`SESS_API_ORIGIN=${view.publicUrl} npx -y @sess.si/mcp`} />
      </Client>
      <Client name="OpenClaw">
        <p>{m.t('home.connect.openclaw')}</p>
        {packages ? (
          <Code
            text={`curl -fsSL -o sess-openclaw.tgz ${packages.openclaw}\nopenclaw plugins install npm-pack:./sess-openclaw.tgz --force --accept-capabilities\nopenclaw sess setup --yes`}
          />
        ) : null}
        <p>
          {sentence(m, 'home.connect.openclawEnv', {
            file: <code>~/.openclaw/.env</code>,
            key: <code>SESS_API_KEY=…</code>,
            origin: <code>SESS_API_ORIGIN={view.publicUrl}</code>,
          })}
        </p>
        <Registry
          packages={packages}
          line={'openclaw plugins install npm:@sess.si/openclaw@0.1.0 --force --accept-capabilities\nopenclaw sess setup --yes'}
        />
      </Client>
      <Client name={m.t('home.connect.codeName')}>
        <p>{sentence(m, 'home.connect.code', { package: <code>@sess/client</code>, api: <code>/v1</code> })}</p>
        {packages ? <Code text={`npm install ${packages.client}`} /> : null}
        <Registry packages={packages} line="npm install @sess/client" />
      </Client>
      <p class="muted">{m.t('home.connect.example')}</p>
    </section>
  );
}
