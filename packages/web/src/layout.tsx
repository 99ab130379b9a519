import type { Child } from 'hono/jsx';

export interface PageProps {
  /** The document title (escaped like every other string; someone else's text goes in through `isolateText`). */
  title: string;
  /** The CSP nonce of this response, for the one inline script a page may carry. */
  nonce?: string;
  /** An inline script, run only under the page's nonce. */
  script?: string;
  children?: Child;
}

/**
 * The HTML shell of every Sess page: a phone-first viewport, the one stylesheet, no
 * third-party requests. Every string passes through hono/jsx, which escapes it.
 */
export function Page({ title, nonce, script, children }: PageProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        <title>{title}</title>
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body>
        <main>{children}</main>
        <footer>Sess</footer>
        {script && nonce ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} /> : null}
      </body>
    </html>
  );
}

/** Where the stylesheet is served; its content hash makes it safe to cache for a year. */
export const STYLESHEET_PATH = '/assets/sess.css';
