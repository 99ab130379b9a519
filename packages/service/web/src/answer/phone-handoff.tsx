import { isLoopbackHostname } from '@sess/core';
import { useMessages } from '../i18n/render-scope.ts';
import { OpenLinkButton } from './page-link.tsx';
import { QrCode } from './qr-code.tsx';
import { SLOT, withSlot } from './slot.tsx';

/**
 * "Answer on your phone": on a computer, a QR code of this very page's link, so the person can
 * carry on on their phone. The stylesheet shows it only on wide screens; on a phone it is hidden.
 * In the chat (`inChat`) the box always shows, with an "Answer on my phone" button the view's
 * script opens through the host; its QR code part shows only on a computer (a fine pointer that
 * hovers), since the iframe's width says nothing about the device.
 */
export function PhoneHandoff({ link, inChat = false }: { link: string; inChat?: boolean }) {
  const m = useMessages();
  return (
    <aside class={inChat ? 'handoff in-chat' : 'handoff'} aria-labelledby="handoff-heading">
      <QrCode text={link} label={m.t('answer.handoff.qrLabel')} />
      <div>
        <div class="handoff-qr-text">
          <h2 id="handoff-heading">{m.t('answer.handoff.heading')}</h2>
          <p class="muted">{inChat ? m.t('answer.handoff.scanForm') : m.t('answer.handoff.scanPage')}</p>
          {URL.canParse(link) && isLoopbackHostname(new URL(link).hostname) ? (
            <p class="muted">{withSlot(m.t('answer.handoff.loopback', { setting: SLOT }), <code>SESS_LINK_URL</code>)}</p>
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
        {inChat ? <OpenLinkButton link={link} label={m.t('answer.handoff.openOnPhone')} /> : null}
      </div>
    </aside>
  );
}
