/**
 * The one script of the pages with something to copy (the MCP URL, a new API key): it reveals
 * each Copy button (`data-copy="<id>"`, hidden without JavaScript, where it could do nothing) and
 * copies the text of the element it names (the value of a read-only field). The Clipboard API needs a secure context (https or localhost); on a
 * plain-http LAN address the script selects the text and falls back to `execCommand('copy')`,
 * and if that fails too the text stays selected for the person to copy. It writes only its own
 * fixed words into the button's status line, in the page's language: the button carries them
 * (`data-copied`, `data-copy-failed`), and the status line is a polite live region. Without JavaScript the address is plain,
 * selectable text.
 */
export const COPY_SCRIPT = `(() => {
  const isField = (element) => element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
  function select(element) {
    if (isField(element)) { element.focus(); element.select(); return; }
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  async function copy(element) {
    const text = isField(element) ? element.value : element.textContent;
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      select(element);
      try { return document.execCommand('copy'); } catch { return false; }
    }
  }
  for (const button of document.querySelectorAll('button[data-copy]')) {
    const target = document.getElementById(button.dataset.copy);
    const status = document.getElementById(button.dataset.copy + '-status');
    if (!target) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      const copied = await copy(target);
      if (status) status.textContent = (copied ? button.dataset.copied : button.dataset.copyFailed) ?? '';
    });
  }
})();`;
