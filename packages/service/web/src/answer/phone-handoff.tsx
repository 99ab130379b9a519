import { isLoopbackHostname } from '@sess/core';
import { OpenLinkButton } from './page-link.tsx';
import { QrCode } from './qr-code.tsx';

/**
 * "Answer on your phone": on a computer, a QR code of this very page's link, so the person can
 * carry on on their phone. The stylesheet shows it only on wide screens; on a phone it is hidden.
 * In the chat (`inChat`) the box always shows, with an "Answer on my phone" button the view's
 * script opens through the host; its QR code part shows only on a computer (a fine pointer that
 * hovers), since the iframe's width says nothing about the device.
 */
export function PhoneHandoff({ link, inChat = false }: { link: string; inChat?: boolean }) {
  return (
    <aside class={inChat ? 'handoff in-chat' : 'handoff'} aria-labelledby="handoff-heading">
      <QrCode text={link} label="QR code of this page’s link" />
      <div>
        <div class="handoff-qr-text">
          <h2 id="handoff-heading">Answer on your phone</h2>
          <p class="muted">
            {inChat
              ? 'Scan this code with your phone’s camera to open this form there.'
              : 'Scan this code with your phone’s camera to open this same page there.'}
          </p>
          {URL.canParse(link) && isLoopbackHostname(new URL(link).hostname) ? (
            <p class="muted">
              This link names this computer, so a phone cannot open it. Whoever runs this Sess can set <code>SESS_LINK_URL</code>{' '}
              to its address on your network (see its README).
            </p>
          ) : null}
          <p class="handoff-link">
            <a
              href={link}
              dir="ltr"
              target={inChat ? '_blank' : undefined}
              rel={inChat ? 'noopener noreferrer' : undefined}
              data-open-link={inChat ? '' : undefined}
            >
              {link}
            </a>
          </p>
        </div>
        {inChat ? <OpenLinkButton link={link} label="Answer on my phone" /> : null}
      </div>
    </aside>
  );
}
