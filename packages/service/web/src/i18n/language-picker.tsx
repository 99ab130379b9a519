import { shippedLanguages } from './languages.ts';
import { useMessages } from './render-scope.ts';

/**
 * Links to this same page in each language, each named in its own language (`lang` on the link,
 * so a screen reader says "Deutsch" in German). Plain links: no script, and the choice is
 * remembered by the cookie the page sets when one is followed.
 */
export function LanguagePicker() {
  const messages = useMessages();
  const href = messages.languageHref;
  if (!href) return null;
  return (
    <nav class="languages" aria-label={messages.t('common.language.label')}>
      <ul>
        {shippedLanguages().map((language) => (
          <li>
            <a
              href={href(language.tag)}
              lang={language.tag}
              hreflang={language.tag}
              aria-current={language.tag === messages.tag ? 'true' : undefined}
            >
              {language.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The script that tells the server the browser's time zone (a cookie), so dates are shown in it. */
export const TIME_ZONE_SCRIPT = `(()=>{try{const z=Intl.DateTimeFormat().resolvedOptions().timeZone;const v='sess_tz='+encodeURIComponent(z);if(z&&!document.cookie.split('; ').includes(v))document.cookie=v+'; path=/; max-age=31536000; samesite=lax'+(location.protocol==='https:'?'; secure':'');}catch{}})();`;
