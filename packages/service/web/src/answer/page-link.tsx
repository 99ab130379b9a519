import type { Child } from 'hono/jsx';
import type { ChatFrame } from './view.ts';

export interface PageLinkProps {
  /** A path on the links' origin (`/s/<token>/receipt`). */
  path: string;
  /** Set when drawn in the chat: the link becomes absolute and the host opens it. */
  chat?: ChatFrame | undefined;
  class?: string | undefined;
  /** A download on the page; in the chat the host opens it (a sandboxed iframe cannot download). */
  download?: boolean | undefined;
  children?: Child;
}

/**
 * A link to another page of the same link: a path on the answer page; in the chat an absolute
 * URL on the links' origin marked `data-open-link`, which the view's script asks the host to open
 * (the iframe itself may not navigate or open windows).
 */
export function PageLink({ path, chat, class: className, download, children }: PageLinkProps) {
  if (chat === undefined) {
    return (
      <a class={className} href={path} download={download ? '' : undefined}>
        {children}
      </a>
    );
  }
  return (
    <a class={className} href={new URL(path, chat.origin).href} target="_blank" rel="noopener noreferrer" data-open-link="">
      {children}
    </a>
  );
}

/** The chat's way to the answer page itself: a button the script opens with `ui/open-link`. */
export function OpenLinkButton({ link, label }: { link: string; label: string }) {
  return (
    <p>
      <a class="button wide" href={link} target="_blank" rel="noopener noreferrer" data-open-link="" data-phone-link="">
        {label}
      </a>
    </p>
  );
}
