/**
 * The one script of the answer page, on the "waiting" page only. It long-polls
 * `<page>/wait?state=answered&revision=N` (JSON `{ state, revision }`) and, once the session has moved on
 * (the agent published the next step, completed, withdrew, or the link lapsed), fetches the
 * page again and swaps its <main> in place, without a reload. A constant: it reads no data
 * from the page except the revision attribute, so nothing the agent wrote can reach it.
 * Without JavaScript a refresh of the page does the same.
 */
export const FOLLOW_SCRIPT = `(() => {
  const main = document.querySelector('main');
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
  async function follow() {
    for (;;) {
      const waiting = document.querySelector('[data-follow-revision]');
      if (!waiting) return;
      const revision = waiting.getAttribute('data-follow-revision');
      const started = Date.now();
      let view;
      try {
        const response = await fetch(base + '/wait?state=answered&revision=' + encodeURIComponent(revision), {
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
      if (view.state === 'answered' && String(view.revision) === revision) {
        // Nothing changed: go straight back to waiting, but never spin on a quick reply.
        if (Date.now() - started < 1000) await sleep(2000);
        continue;
      }
      try {
        await swap();
      } catch {
        await sleep(5000);
      }
    }
  }
  follow();
})();`;
