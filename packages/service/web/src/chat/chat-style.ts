/*
 * What the chat view adds to the one stylesheet: a transparent page that fits the host's message
 * column, the "Answer on my phone" box (its QR code only on a computer: the iframe's width says
 * nothing about the device, a fine pointer that hovers does), and the dark theme the host asks for.
 */
export const CHAT_STYLE = `
/* The chat view (MCP App): the answer page's Surface inside an agent's chat. */
html.chat-doc, .chat-doc body { background: transparent; }
.chat-doc body { font-family: var(--font-sans, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif); }
.chat-doc main { max-width: 40rem; padding: .25rem; }
.chat-doc .card { padding: 1rem; }
.chat-note { margin: 0 0 .75rem; }
.handoff.in-chat { display: block; margin: 0 0 .75rem; padding: .75rem 1rem; background: var(--card);
  border: 1px solid var(--line); border-radius: 12px; }
.handoff.in-chat .qr, .handoff.in-chat .handoff-qr-text { display: none; }
.handoff.in-chat p:last-child { margin: 0; }
.handoff.in-chat .button { background: var(--card); color: var(--accent); }
@media (hover: hover) and (pointer: fine) {
  html:not([data-platform="mobile"]) .handoff.in-chat { display: flex; align-items: center; gap: 1.25rem; }
  html:not([data-platform="mobile"]) .handoff.in-chat .qr, html:not([data-platform="mobile"]) .handoff.in-chat .handoff-qr-text { display: block; }
  html:not([data-platform="mobile"]) .handoff.in-chat .button { margin-top: .5rem; }
}
[data-theme="dark"] { --ink: #e8eaef; --muted: #aab1be; --line: #3b414d; --bg: #14161b; --card: #1c1f26; --accent: #8cb4ff;
  --accent-ink: #0b1020; --danger: #ff8f85; --ok: #72dca0; --focus: #f6b45e; color-scheme: dark; }
[data-theme="dark"] input, [data-theme="dark"] select, [data-theme="dark"] textarea { background: #101217; border-color: #6d7586; }
[data-theme="dark"] button.secondary, [data-theme="dark"] .button.secondary, [data-theme="dark"] button.danger { background: transparent; }
[data-theme="dark"] .banner { background: #1e2944; }
[data-theme="dark"] .banner.ok { background: #10291d; }
[data-theme="dark"] .banner.warn { background: #2d2512; }
[data-theme="dark"] .banner.error { background: #391715; }
`;
