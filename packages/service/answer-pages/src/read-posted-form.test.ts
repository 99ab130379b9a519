import { describe, expect, it } from 'vitest';
import { readPostedForm } from './read-posted-form.ts';

const formPost = (body: string, type = 'application/x-www-form-urlencoded; charset=UTF-8') =>
  new Request('http://x/s/t', { method: 'POST', headers: { 'content-type': type }, body });

describe('readPostedForm', () => {
  it('splits the page’s hidden inputs from the person’s values', async () => {
    const form = await readPostedForm(formPost('_csrf=c&_revision=2&_action=approve&message=Hi%0D%0Athere&ok=on'));
    expect(form?.control).toEqual({ csrf: 'c', revision: '2', action: 'approve' });
    expect({ ...form?.values }).toEqual({ message: 'Hi\r\nthere', ok: 'on' });
  });

  it('keeps every value of a repeated name (checkboxes) in order', async () => {
    const form = await readPostedForm(formPost('extras=bike&extras=boat&one=x'));
    expect({ ...form?.values }).toEqual({ extras: ['bike', 'boat'], one: 'x' });
  });

  it('keeps every name but the page’s own for validateAnswer to judge: __proto__ as much as constructor', async () => {
    const form = await readPostedForm(formPost('_csrf=c&_other=1&__proto__=x&constructor=y&prototype=z'));
    expect(Object.keys(form?.values ?? {})).toEqual(['_other', '__proto__', 'constructor', 'prototype']);
    expect(Object.getOwnPropertyDescriptor(form?.values, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(form?.values)).toBeNull();
  });

  it('treats a missing control field as absent', async () => {
    const form = await readPostedForm(formPost('message=x'));
    expect(form?.control).toEqual({ csrf: undefined, revision: undefined, action: undefined });
  });

  it.each(['application/json', 'multipart/form-data; boundary=x', 'text/plain'])('refuses a %s body', async (type) => {
    expect(await readPostedForm(formPost('a=b', type))).toBeNull();
  });
});
