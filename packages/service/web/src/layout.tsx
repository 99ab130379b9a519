import type { Child } from 'hono/jsx';
import { LanguagePicker, TIME_ZONE_SCRIPT } from './i18n/language-picker.tsx';
import { useMessages } from './i18n/render-scope.ts';
import { PWA_PATHS, THEME_COLOR } from './pwa/web-app.ts';

export interface PageProps {
  /** The document title (escaped like every other string; someone else's text goes in through `isolateText`). */
  title: string;
  /** The CSP nonce of this response, for the one inline script a page may carry. */
  nonce?: string;
  /** An inline script, run only under the page's nonce. */
  script?: string;
  /**
   * The page a person adds to the Home Screen: it links the manifest, the icons and the theme
   * colour (its CSP must allow `manifest-src 'self'`).
   */
  webApp?: boolean;
  children?: Child;
}

/**
 * The HTML shell of every Sess page: a phone-first viewport, the one stylesheet, no
 * third-party requests. Every string passes through hono/jsx, which escapes it.
 */
export function Page({ title, nonce, script, webApp, children }: PageProps) {
  const messages = useMessages();
  return (
    <html lang={messages.tag} dir={messages.dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex, nofollow" />
        {webApp ? (
          <>
            <meta name="theme-color" content={THEME_COLOR} />
            <meta name="apple-mobile-web-app-capable" content="yes" />
            <meta name="apple-mobile-web-app-title" content="Sess" />
          </>
        ) : null}
        <title>{title}</title>
        {webApp ? (
          <>
            <link rel="manifest" href={PWA_PATHS.manifest} />
            <link rel="icon" href={PWA_PATHS.iconSvg} type="image/svg+xml" />
            <link rel="apple-touch-icon" href={PWA_PATHS.appleTouchIcon} />
          </>
        ) : null}
        <link rel="stylesheet" href={STYLESHEET_PATH} />
      </head>
      <body>
        <main>{children}</main>
        <footer>
          <LanguagePicker />
          <p>{messages.t('common.footer')}</p>
        </footer>
        {/* A page that runs a script also tells the server the browser's time zone (for the dates it shows). */}
        {script && nonce ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: TIME_ZONE_SCRIPT + script }} /> : null}
      </body>
    </html>
  );
}

/** Where the stylesheet is served; its content hash makes it safe to cache for a year. */
export const STYLESHEET_PATH = '/assets/sess.css';
