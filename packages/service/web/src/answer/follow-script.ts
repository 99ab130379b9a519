/**
 * The one script of the answer page, on the form and on the "waiting" page. Each page marks
 * what it shows with `data-follow-revision` and `data-follow-state`; the script long-polls
 * `<page>/wait?state=S&revision=N` (JSON `{ state, revision }`) until the session moves on (the
 * agent published the next step, completed or withdrew, another tab answered, the link lapsed
 * or closed). Then:
 * - the waiting page fetches the page again and swaps its <main> in place, without a reload;
 * - an open form (`data-follow-keep`) keeps what the person typed: it says what changed in its
 *   notice, with a button that loads the new page only when the person chooses, and its own
 *   buttons are disabled, since the server would refuse what they send (they work again if the
 *   same step opens again, as when more time is given from another tab). That holds as soon
 *   as the script learns it, also from its first wait right after the page loaded.
 * A constant: it reads no data from the page except those attributes and the JSON of its
 * sentences in the page's language (`data-follow-words`, follow-words.ts: Sess's own words), and writes them only as
 * text, so nothing the agent wrote can reach it. Without JavaScript nothing changes:
 * the form posts as before and the server's answer is the truth; a refresh shows the news.
 */
export const FOLLOW_SCRIPT = `(() => {
  const main = document.querySelector('main');
  // After a refused post the error summary takes the focus: read first, and Tab starts there.
  const summary = document.getElementById('error-summary');
  if (summary) summary.focus();
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const base = location.pathname.replace(/\\/+$/, '');
  async function swap() {
    const response = await fetch(location.pathname, { cache: 'no-store', headers: { accept: 'text/html' } });
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
    const fresh = doc.querySelector('main');
    if (!main || !fresh) return location.reload();
    document.title = doc.title;
    main.replaceChildren(...Array.from(fresh.childNodes, (node) => document.importNode(node, true)));
    const heading = main.querySelector('h1');
    if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus(); }
  }
  function sendable(marker, on) {
    for (const button of marker.querySelectorAll('form button[type="submit"]')) button.disabled = !on;
  }
  function tell(marker, view) {
    const box = marker.querySelector('[data-follow-notice]');
    marker.setAttribute('data-follow-state', view.state);
    marker.setAttribute('data-follow-revision', String(view.revision));
    // Open again at the same step (more time was given from another tab): the form works again.
    if (box && view.state === 'open' && String(view.revision) === marker.getAttribute('data-follow-shown')) {
      sendable(marker, true);
      return box.replaceChildren();
    }
    sendable(marker, false);
    const own = marker.getAttribute('data-follow-kind') === 'respondent' && view.state === 'completed';
    // The sentences, in the page's language, from the form's data-follow-words (follow-words.ts).
    let notices = {};
    try { notices = JSON.parse(marker.getAttribute('data-follow-words') || '{}'); } catch {}
    const words = own ? notices.answered : notices[view.state];
    if (!box || !words) return swap();
    const text = document.createElement('p');
    text.textContent = words[0];
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary wide';
    button.textContent = words[1];
    button.addEventListener('click', () => { swap().catch(() => location.reload()); });
    const banner = document.createElement('div');
    banner.className = 'banner warn';
    banner.append(text, button);
    box.replaceChildren(banner);
  }
  async function follow() {
    for (;;) {
      const marker = document.querySelector('[data-follow-revision]');
      if (!marker) return;
      const revision = marker.getAttribute('data-follow-revision');
      const state = marker.getAttribute('data-follow-state') || 'answered';
      const started = Date.now();
      let view;
      try {
        const response = await fetch(base + '/wait?state=' + encodeURIComponent(state) + '&revision=' + encodeURIComponent(revision), {
          cache: 'no-store',
          headers: { accept: 'application/json' },
        });
        if (response.status === 404) return;
        if (!response.ok) throw new Error('wait ' + response.status);
        view = await response.json();
      } catch {
        await sleep(5000);
        continue;
      }
      // The person loaded another page meanwhile: follow that one instead.
      if (!marker.isConnected) continue;
      if (view.state === state && String(view.revision) === revision) {
        // Nothing changed: go straight back to waiting, but never spin on a quick reply.
        if (Date.now() - started < 1000) await sleep(2000);
        continue;
      }
      try {
        if (marker.hasAttribute('data-follow-keep')) tell(marker, view);
        else await swap();
      } catch {
        await sleep(5000);
      }
    }
  }
  follow();
})();`;
