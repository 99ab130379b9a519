import { isLoopbackHostname } from '@sess/core';
import { QrCode } from './qr-code.tsx';

/**
 * "Answer on your phone": on a computer, a QR code of this very page's link, so the person can
 * carry on on their phone. The stylesheet shows it only on wide screens; on a phone it is hidden.
 */
export function PhoneHandoff({ link }: { link: string }) {
  return (
    <aside class="handoff" aria-labelledby="handoff-heading">
      <QrCode text={link} label="QR code of this page’s link" />
      <div>
        <h2 id="handoff-heading">Answer on your phone</h2>
        <p class="muted">Scan this code with your phone’s camera to open this same page there.</p>
        {URL.canParse(link) && isLoopbackHostname(new URL(link).hostname) ? (
          <p class="muted">
            This link names this computer, so a phone cannot open it. Whoever runs this Sess can set <code>SESS_LINK_URL</code> to
            its address on your network (see its README).
          </p>
        ) : null}
        <p class="handoff-link">
          <a href={link} dir="ltr">
            {link}
          </a>
        </p>
      </div>
    </aside>
  );
}
