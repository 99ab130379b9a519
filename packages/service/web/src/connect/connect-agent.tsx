import type { Child } from 'hono/jsx';
import type { ConnectView, ServedPackageUrls } from './connect-view.ts';

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
  return packages ? (
    <>
      <p class="muted">Once the package is published on npm, this works as well:</p>
      <Code text={line} />
    </>
  ) : (
    <>
      <p class="muted">
        This server was built without its client packages (<code>npm run build</code> packs them), and they are not on npm yet.
        Once they are:
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
  const url = view.mcpUrl;
  const packages = view.packages;
  return (
    <section class="connect" aria-labelledby="connect-heading">
      <h2 id="connect-heading">Connect your agent</h2>
      <p>
        Give your agent this MCP URL. It opens Sess in your browser: sign in and choose <strong>Allow</strong>.
      </p>
      <div class="copy-box">
        <code id={MCP_URL_ID} class="copy-text">
          {url}
        </code>
        <button type="button" class="secondary copy" data-copy={MCP_URL_ID} hidden>
          Copy
        </button>
      </div>
      <p id={`${MCP_URL_ID}-status`} class="muted copy-status" role="status" />
      <Client name="Claude Code">
        <p>Run both commands: the first only writes the configuration, the second signs you in.</p>
        <Code text={`claude mcp add --transport http sess ${url}\nclaude mcp login sess`} />
      </Client>
      <Client name="Cursor">
        <p>
          In <code>.cursor/mcp.json</code> (project) or <code>~/.cursor/mcp.json</code>:
        </p>
        <Code text={json({ mcpServers: { sess: { url } } })} />
      </Client>
      <Client name="Cline">
        <p>
          MCP Servers → <em>Configure MCP Servers</em>, then add to <code>cline_mcp_settings.json</code> (no key goes in the
          file):
        </p>
        <Code text={json({ mcpServers: { sess: { type: 'streamableHttp', url } } })} />
      </Client>
      <Client name="VS Code">
        <p>
          In <code>.vscode/mcp.json</code>:
        </p>
        <Code text={json({ servers: { sess: { type: 'http', url } } })} />
      </Client>
      <Client name="claude.ai, ChatGPT, Grok">
        {view.reachableByHostedClients ? null : (
          <div class="banner warn" role="note">
            <p>
              These apps connect from the internet, so they need Sess on public HTTPS. This server's address,{' '}
              <code>{view.publicUrl}</code>, is not: run Sess behind a TLS proxy on a public name and set <code>PUBLIC_URL</code>{' '}
              to it.
            </p>
          </div>
        )}
        <p>
          Add a custom connector with the MCP URL, then sign in and choose Allow. claude.ai: Customize → Connectors →{' '}
          <em>Add custom connector</em>. ChatGPT: Plugins → <em>Add custom MCP server</em> (your plan must allow tools that make
          changes). grok.com: Connectors → <em>New Connector</em> → <em>Custom</em>. Grok Build:
        </p>
        <Code text={`grok mcp add --transport http sess ${url}`} />
      </Client>
      <Client name="sess-mcp on your own machine">
        <p>
          A local (stdio) server that uses an API key instead of signing in. Make a key under{' '}
          <a href={view.apiKeysHref}>API keys</a>, put it in <code>SESS_API_KEY</code> (never in a chat), and add this to your
          agent as a local MCP server:
        </p>
        {packages ? <Code text={`SESS_API_ORIGIN=${view.publicUrl} npx -y ${packages.sessMcp}`} /> : null}
        <Registry packages={packages} line={`SESS_API_ORIGIN=${view.publicUrl} npx -y @sess.si/mcp`} />
      </Client>
      <Client name="OpenClaw">
        <p>
          The Sess plugin gives your Claw the same tools. OpenClaw installs a plugin from a file, not a URL: download it, then
          install it.
        </p>
        {packages ? (
          <Code
            text={`curl -fsSL -o sess-openclaw.tgz ${packages.openclaw}\nopenclaw plugins install npm-pack:./sess-openclaw.tgz --force --accept-capabilities\nopenclaw sess setup --yes`}
          />
        ) : null}
        <p>
          Then give the Gateway an API key and this server's address in <code>~/.openclaw/.env</code> (<code>SESS_API_KEY=…</code>{' '}
          and <code>SESS_API_ORIGIN={view.publicUrl}</code>) and restart it.
        </p>
        <Registry
          packages={packages}
          line={'openclaw plugins install npm:@sess.si/openclaw@0.1.0 --force --accept-capabilities\nopenclaw sess setup --yes'}
        />
      </Client>
      <Client name="Your own code (no MCP)">
        <p>
          <code>@sess/client</code>, a typed client for the <code>/v1</code> API with an API key, verifies each answer's receipt:
        </p>
        {packages ? <Code text={`npm install ${packages.client}`} /> : null}
        <Registry packages={packages} line="npm install @sess/client" />
      </Client>
      <p class="muted">
        Then ask, for example: <em>"Ask me on my phone what time works for a call tomorrow, using Sess."</em>
      </p>
    </section>
  );
}
