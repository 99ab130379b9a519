// The one stylesheet of every page: mobile first, system fonts, no third-party requests.
// Kept as a module (not a .css file) so the sources and the bundled server read it alike.
export const STYLESHEET_CSS = `
/* Sess: one small stylesheet for every page. Mobile first, system fonts, no third-party requests. */
:root {
  --ink: #16181d;
  --muted: #4a5160;
  --line: #c9ced8;
  --bg: #f6f7f9;
  --card: #ffffff;
  --accent: #1d4ed8;
  --accent-ink: #ffffff;
  --danger: #b42318;
  --ok: #067647;
  --focus: #b45309;
  --field: #ffffff;
  --field-line: #767f92;
  --info-bg: #eef2ff;
  --ok-bg: #ecfdf3;
  --warn-bg: #fffaeb;
  --danger-bg: #fef3f2;
  color-scheme: light dark;
}
/* Dark: the same roles, each colour pair at least 4.5:1 (text) or 3:1 (borders, focus). */
@media (prefers-color-scheme: dark) {
  :root {
    --ink: #e8eaee;
    --muted: #b1b8c6;
    --line: #3b4250;
    --bg: #0f1115;
    --card: #181b21;
    --accent: #9ab8ff;
    --accent-ink: #0b1020;
    --danger: #ff9b91;
    --ok: #74e0a8;
    --focus: #fbbf24;
    --field: #0f1115;
    --field-line: #7d869a;
    --info-bg: #1b2440;
    --ok-bg: #0f2a1d;
    --warn-bg: #2d2410;
    --danger-bg: #3a1512;
  }
}
/* No motion for people who asked for none (nothing here animates on purpose; a browser's smooth scroll does). */
@media (prefers-reduced-motion: reduce) {
  *, ::before, ::after { animation-duration: .01ms !important; animation-iteration-count: 1 !important;
    transition-duration: .01ms !important; scroll-behavior: auto !important; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  font: 17px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink);
  background: var(--bg);
  /* Nothing scrolls sideways: a word longer than its line breaks wherever it must, in every
     element (both inherit), and no longer holds a flex or grid track open. Safari before 15.4
     knows only word-break: break-word, which means the same. */
  overflow-wrap: anywhere;
  word-break: break-word;
}
main { max-width: 36rem; margin: 0 auto; padding: 1rem; }
a { color: var(--accent); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.25rem; }
h1 { font-size: 1.4rem; line-height: 1.25; margin: 0 0 .5rem; }
h2 { font-size: 1.1rem; margin: 1.25rem 0 .5rem; }
p { margin: 0 0 .75rem; }
.lead { color: var(--muted); }
.pre { white-space: pre-wrap; }
.muted { color: var(--muted); font-size: .95rem; }
div.record { margin: 1rem 0; }
.caption { font-weight: 600; margin-bottom: .25rem; }
dl.record { margin: .5rem 0 1rem; display: grid; grid-template-columns: minmax(6rem, 40%) minmax(0, 1fr); gap: .25rem .75rem; }
dl.record dt { font-weight: 600; }
dl.record dd { margin: 0; white-space: pre-wrap; }
dl.record > .pair { display: contents; }
/* The answer page's records: one ruled row per pair, key above value on a phone. */
dl.pairs { display: block; margin: 0; border-top: 1px solid var(--line); }
dl.pairs .pair { display: block; padding: .5rem 0; border-bottom: 1px solid var(--line); }
dl.pairs dt { font-size: .95rem; }
@media (min-width: 30rem) { dl.pairs .pair { display: grid; grid-template-columns: minmax(6rem, 40%) minmax(0, 1fr); gap: .75rem; } }
.context { color: var(--muted); font-size: .95rem; margin: 0 0 .25rem; }
.req { font-weight: 400; color: var(--muted); font-size: .9rem; }
.field { margin: 1rem 0; }
.field > label, .field > legend, fieldset > legend { display: block; font-weight: 600; margin-bottom: .25rem; padding: 0; }
.field.invalid { border-inline-start: 4px solid var(--danger); padding-inline-start: .75rem; }
.hint { color: var(--muted); font-size: .95rem; margin: 0 0 .35rem; }
/* A fieldset is at least as wide as its content by default; this one fits its column like a div. */
fieldset { border: 0; padding: 0; margin: 1rem 0; min-width: 0; }
input[type="text"], input[type="email"], input[type="password"], input[type="number"], input[type="url"],
input[type="date"], input[type="time"], input[type="datetime-local"], select, textarea {
  width: 100%;
  min-height: 44px;
  padding: .55rem .7rem;
  font: inherit;
  color: var(--ink);
  background: var(--field);
  border: 1px solid var(--field-line);
  border-radius: 8px;
}
textarea { min-height: 7rem; resize: vertical; }
.choice { display: flex; align-items: center; gap: .6rem; min-height: 44px; padding: .25rem 0; }
.choice label { flex: 1; padding: .5rem 0; cursor: pointer; }
/* A flex or grid child may be narrower than its content (by default it is at least its widest word or control). */
.choice > *, .actions > *, .account-header > *, .plain-list li > *, .nav-list > *, dl.record > *, dl.record .pair > * { min-width: 0; }
.choice + .hint { margin-inline-start: 2.1rem; }
.choice input { width: 1.5rem; height: 1.5rem; margin: 0; flex: none; accent-color: var(--accent); }
.rating { display: flex; gap: .5rem; flex-wrap: wrap; }
.rating label { position: relative; display: inline-flex; align-items: center; justify-content: center; min-width: 44px; min-height: 44px;
  border: 1px solid var(--field-line); border-radius: 8px; cursor: pointer; }
.rating input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.rating input:checked + span { font-weight: 700; }
.scale { display: flex; justify-content: space-between; max-width: 16rem; font-size: .85rem; margin-top: .35rem; }
.rating label:has(input:checked) { background: var(--accent); color: var(--accent-ink); border-color: var(--accent); }
.rating label:has(input:focus-visible) { outline: 3px solid var(--focus); outline-offset: 2px; }
.actions { display: flex; flex-direction: column; gap: .6rem; margin-top: 1.25rem; }
@media (min-width: 40rem) { .actions { flex-direction: row; flex-wrap: wrap; } }
button, .button {
  min-height: 44px;
  padding: .6rem 1.1rem;
  font: inherit;
  font-weight: 600;
  border-radius: 8px;
  border: 1px solid var(--accent);
  background: var(--accent);
  color: var(--accent-ink);
  cursor: pointer;
  text-align: center;
  text-decoration: none;
  /* A long label wraps inside the button instead of widening it past its column. */
  max-width: 100%;
  white-space: normal;
}
button.secondary, .button.secondary { background: var(--card); color: var(--accent); }
button.danger { background: var(--card); color: var(--danger); border-color: var(--danger); }
/* A button that cannot act now (a form the session left, a wait in progress) looks it. */
button:disabled { opacity: .45; cursor: not-allowed; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.error { color: var(--danger); font-weight: 600; font-size: .95rem; margin: .25rem 0 .35rem; }
.banner ul { margin: .25rem 0 0; padding-inline-start: 1.2rem; }
.banner.error a { color: var(--danger); }
.expires { margin: 1rem 0 0; }
.status-card h1 { display: flex; align-items: center; gap: .6rem; }
.mark { flex: none; display: inline-flex; align-items: center; justify-content: center; width: 2rem; height: 2rem;
  border-radius: 50%; background: var(--muted); color: var(--card); font-size: 1.1rem; }
.mark::after { content: "\\00d7"; }
.ok .mark { background: var(--ok); }
.ok .mark::after { content: "\\2713"; }
.wait .mark { background: var(--accent); }
.wait .mark::after { content: "\\2026"; }
.attention .mark { background: var(--focus); }
.attention .mark::after { content: "!"; }
h1[tabindex="-1"]:focus { outline: none; }
[aria-invalid="true"] { border-color: var(--danger) !important; }
.banner { border-radius: 8px; padding: .75rem 1rem; margin: 0 0 1rem; background: var(--info-bg); }
.banner.ok { background: var(--ok-bg); color: var(--ok); }
.banner.warn { background: var(--warn-bg); }
.banner.error { background: var(--danger-bg); color: var(--danger); }
.status { font-size: 1.1rem; font-weight: 600; }
footer { color: var(--muted); font-size: .85rem; text-align: center; padding: 1.5rem 0; }
.languages ul { list-style: none; display: flex; flex-wrap: wrap; justify-content: center; gap: .25rem .5rem; margin: 0 0 .5rem; padding: 0; }
.languages a { display: inline-block; min-height: 24px; min-width: 24px; padding: .25rem .5rem; color: inherit; }
.languages a[aria-current="true"] { font-weight: 600; text-decoration: none; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: start; padding: .5rem .25rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; }
/* Account pages (sign-in, sign-up, /account, /account/keys). */
a.button { display: inline-flex; align-items: center; justify-content: center; }
.account-header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem 1rem; margin: 0 0 1rem; }
.account-header p { margin: 0; }
.plain-list, .nav-list { list-style: none; margin: 0 0 1rem; padding: 0; }
.plain-list li { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; padding: .5rem 0; border-bottom: 1px solid var(--line); }
.plain-list .name { font-weight: 600; }
.plain-list form { margin-inline-start: auto; }
.nav-list { display: flex; flex-wrap: wrap; gap: .6rem; }
.alt-signin { margin-top: 1rem; text-align: center; }
button.wide { width: 100%; }
.switch { margin-top: 1.25rem; }
input.secret, textarea.secret { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
/* A new API key: the whole key in view at any width (it breaks anywhere: it has no words), the
   box as tall as the key needs where the browser can size it to its content. */
textarea.key-value { min-height: 0; resize: none; word-break: break-all; overflow-wrap: anywhere; field-sizing: content; }
/* /account/keys: one key per row, its details wrapping under its name on a phone. */
.api-key > div { flex: 1 1 14rem; }
.key-detail { margin: .15rem 0 0; }
td form button { white-space: nowrap; }
.button.wide { display: flex; width: 100%; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
/* The answer page: "Answer on your phone" (a QR code of the link) only on a computer-wide screen. */
.handoff { display: none; }
@media (min-width: 60rem) {
  .handoff { display: flex; align-items: center; gap: 1.25rem; margin: 0 0 1rem; padding: 1rem 1.25rem;
    background: var(--card); border: 1px solid var(--line); border-radius: 12px; }
}
.handoff > div { min-width: 0; }
.handoff h2 { margin: 0 0 .35rem; }
.handoff-link { font-size: .85rem; margin: 0; }
.qr { flex: none; width: 9rem; height: 9rem; }
/* What an open form says when its session moves on: kept in view while the person scrolls. */
.follow-notice { position: sticky; top: .5rem; z-index: 1; }
.follow-notice .banner { box-shadow: 0 2px 10px rgba(0, 0, 0, .25); }
.follow-notice button { margin-top: .5rem; }
.own-answer { margin-top: 1.5rem; }
.own-answer .receipt { margin-top: 1rem; }
/* "Connect your agent" (home and account pages): the MCP URL to copy, each client's steps folded.
   Commands and files wrap inside their own box, keeping their indentation; the page never widens. */
.connect { margin-top: 1.5rem; }
.copy-box { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; padding: .5rem .75rem;
  background: var(--bg); border: 1px solid var(--line); border-radius: 8px; }
.copy-box > * { min-width: 0; }
.copy-text { flex: 1 1 12rem; font-size: 1rem; user-select: all; }
.copy-status { min-height: 1.5em; margin: .25rem 0 .5rem; }
pre.code { margin: .25rem 0 .75rem; padding: .6rem .75rem; background: var(--bg); border: 1px solid var(--line);
  border-radius: 8px; white-space: pre-wrap; font-size: .9rem; }
pre.code code { font-size: inherit; }
details.client { border-top: 1px solid var(--line); }
details.client summary { min-height: 44px; padding: .6rem 0; font-weight: 600; cursor: pointer; }
.client-steps { padding-bottom: .5rem; }
/* Two buttons that stay side by side on a phone (consent's Allow / Deny: both above the fold). */
.actions.side-by-side { flex-direction: row; flex-wrap: wrap; }
.actions.side-by-side > * { flex: 1 1 8rem; }
.permissions-intro { margin-bottom: .25rem; }
.permissions { margin: 0 0 .75rem; padding-inline-start: 1.25rem; }
.consent-after { margin: 1rem 0 0; }
/* /account/notifications: devices, "Notify this device", quiet hours side by side. */
.device > div { flex: 1 1 14rem; }
.device-when { margin: .15rem 0 0; }
/* /account/passkeys: each passkey's Rename folded under its row. */
.passkey details { flex: 1 1 100%; }
.passkey summary { min-height: 44px; padding: .6rem 0; cursor: pointer; }
.quiet-times { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0 .75rem; }
.quiet-times .field { margin: .5rem 0; }
#notify-device ol { margin: .25rem 0 .75rem; padding-inline-start: 1.25rem; }
.back-link { margin: 1.25rem 0 0; }
/* Notifications (issue 40): a device's dates, a list read as one line, joined by dots. */
.device-when { list-style: none; padding: 0; }
.device-when li { display: inline; }
.device-when li + li::before { content: " · " / ""; }
`;
