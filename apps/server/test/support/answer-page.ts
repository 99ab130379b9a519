import { findForm, parseHtmlForms } from '@sess/testkit';

/**
 * A person answering on the page behind the link, over HTTP with form posts (what the page does
 * without JavaScript): GET the page, fill the form it shows, press a button. Returns the status
 * of the post (303 = accepted) and the page it leads to.
 */
export async function answerOnPage(
  humanUrl: string,
  values: Record<string, string | string[]>,
  action?: string,
): Promise<{ status: number; page: string }> {
  const url = new URL(humanUrl);
  const page = await fetch(url);
  const html = await page.text();
  const form = findForm(html, url.pathname);
  const body = new URLSearchParams(form.fields);
  for (const [name, value] of Object.entries(values)) {
    body.delete(name);
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  const buttonName = Object.keys(form.buttons)[0];
  if (buttonName) body.set(buttonName, action ?? form.buttons[buttonName]![0]!);
  const posted = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url.origin },
    body,
  });
  const next =
    posted.status === 303 ? await (await fetch(new URL(posted.headers.get('location')!, url))).text() : await posted.text();
  return { status: posted.status, page: next };
}

/** The visible text of a page (tags stripped), for assertions like "Done". */
export function pageText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export { parseHtmlForms };
