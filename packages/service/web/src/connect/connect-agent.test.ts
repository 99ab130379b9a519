import { describe, expect, it } from 'vitest';
import { ConnectAgent } from './connect-agent.tsx';
import { buildConnectView, isPublicHttpsOrigin } from './connect-view.ts';

const render = (publicUrl: string) => ConnectAgent({ view: buildConnectView(publicUrl) }).toString() as string;
/** The text as a reader sees it: tags dropped, the entities hono/jsx writes read back. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('isPublicHttpsOrigin: whether claude.ai, ChatGPT and Grok could reach this server', () => {
  it.each([
    ['https://sess.example.com', true],
    ['https://sess.example.com:8443', true],
    ['https://203.0.113.7', true],
    ['http://sess.example.com', false],
    ['http://localhost:8787', false],
    ['https://localhost:8787', false],
    ['https://sess.localhost', false],
    ['https://printer.local', false],
    ['https://127.0.0.1', false],
    ['https://10.1.2.3', false],
    ['https://192.168.1.20:8787', false],
    ['https://172.20.0.5', false],
    ['https://172.32.0.5', true],
    ['https://169.254.1.1', false],
    ['https://[::1]', false],
    ['https://[fd00::1]', false],
    ['https://[2001:db8::1]', true],
    ['not a url', false],
  ])('%s → %s', (origin, expected) => {
    expect(isPublicHttpsOrigin(origin)).toBe(expected);
  });
});

describe('Connect your agent', () => {
  const html = render('https://sess.example.com');

  it('shows the MCP URL as selectable text with a Copy button that only the script reveals', () => {
    expect(buildConnectView('https://sess.example.com').mcpUrl).toBe('https://sess.example.com/mcp');
    expect(html).toContain('<code id="mcp-url" class="copy-text">https://sess.example.com/mcp</code>');
    expect(html).toMatch(
      /<button type="button" class="secondary copy" data-copy="mcp-url" data-copied="Copied." data-copy-failed="Selected: copy it with your keyboard or menu." hidden="">Copy<\/button>/,
    );
    expect(html).toContain('id="mcp-url-status"');
  });

  it('Claude Code: add AND login (add alone only writes the configuration)', () => {
    expect(text(html)).toContain('claude mcp add --transport http sess https://sess.example.com/mcp\nclaude mcp login sess');
  });

  it('Cursor, Cline and VS Code: each file with its own shape', () => {
    const plain = text(html);
    expect(plain).toContain('.cursor/mcp.json');
    expect(plain).toContain(JSON.stringify({ mcpServers: { sess: { url: 'https://sess.example.com/mcp' } } }, null, 2));
    expect(plain).toContain('cline_mcp_settings.json');
    expect(plain).toContain(
      JSON.stringify({ mcpServers: { sess: { type: 'streamableHttp', url: 'https://sess.example.com/mcp' } } }, null, 2),
    );
    expect(plain).toContain('.vscode/mcp.json');
    expect(plain).toContain(
      JSON.stringify({ servers: { sess: { type: 'http', url: 'https://sess.example.com/mcp' } } }, null, 2),
    );
  });

  it('hosted clients: no warning on public HTTPS; on http or localhost, says they need public HTTPS', () => {
    expect(text(html)).toContain('claude.ai, ChatGPT, Grok');
    expect(html).not.toContain('need Sess on public HTTPS');
    const local = text(render('http://localhost:8787'));
    expect(local).toContain('need Sess on public HTTPS');
    expect(local).toContain('This server’s address, http://localhost:8787, is not');
    expect(text(render('http://192.168.1.20:8787'))).toContain('need Sess on public HTTPS');
  });

  it('sess-mcp on your own machine: an API key, never in a chat, and this server as its origin', () => {
    const plain = text(html);
    expect(plain).toContain('SESS_API_ORIGIN=https://sess.example.com npx -y @sess.si/mcp');
    expect(html).toContain('<a href="/account/keys">API keys</a>');
    expect(plain).toContain('never in a chat');
  });

  it('without served packages: the registry lines only, saying they are not published yet and how the server packs them', () => {
    const plain = text(html);
    expect(plain).toContain('built without its client packages (npm run build packs them), and they are not on npm');
    expect(plain).toContain('openclaw plugins install npm:@sess.si/openclaw@0.1.0 --force --accept-capabilities');
    expect(plain).toContain('npm install @sess/client');
    expect(plain).not.toContain('/packages/');
    // Each registry line once: no line above it that would be the same.
    expect(plain.split('npx -y @sess.si/mcp')).toHaveLength(2);
  });

  describe('with the packages this server serves', () => {
    const packages = {
      sessMcp: 'https://sess.example.com/packages/sess-mcp-0123456789ab.tgz',
      openclaw: 'https://sess.example.com/packages/sess-openclaw-0123456789ab.tgz',
      client: 'https://sess.example.com/packages/sess-client-0123456789ab.tgz',
    };
    const served = text(ConnectAgent({ view: buildConnectView('https://sess.example.com', packages) }).toString() as string);

    it('sess-mcp: npx runs the served tarball; the registry line is labelled as the one for once it is published', () => {
      expect(served).toContain(`SESS_API_ORIGIN=https://sess.example.com npx -y ${packages.sessMcp}`);
      expect(served).toContain(
        'Once the package is published on npm, this works as well:SESS_API_ORIGIN=https://sess.example.com npx -y @sess.si/mcp',
      );
    });

    it('OpenClaw: download, then install the file with npm-pack: (it takes no URL), set up; the key and origin in its .env', () => {
      expect(served).toContain(
        `curl -fsSL -o sess-openclaw.tgz ${packages.openclaw}\nopenclaw plugins install npm-pack:./sess-openclaw.tgz --force --accept-capabilities\nopenclaw sess setup --yes`,
      );
      expect(served).toContain('SESS_API_ORIGIN=https://sess.example.com');
      expect(served).toContain('openclaw plugins install npm:@sess.si/openclaw@0.1.0');
    });

    it('your own code: npm install the served @sess/client', () => {
      expect(served).toContain(`npm install ${packages.client}`);
      expect(served).toContain('npm install @sess/client');
      expect(served).not.toContain('built without its client packages');
    });
  });

  it('escapes what it shows (an operator URL is still not markup)', () => {
    const odd = render('https://sess.example.com/<b>');
    expect(odd).not.toContain('<b>');
    expect(odd).toContain('https://sess.example.com/&lt;b&gt;/mcp');
  });
});
