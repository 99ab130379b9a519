import { useMessages } from '../i18n/render-scope.ts';

/**
 * The Copy button of `COPY_SCRIPT` for the element `target` (hidden until the script shows it),
 * carrying the status words the script writes, in the page's language. Put the status line
 * (`<p id="<target>-status" role="status">`) beside it. `label` names what is copied ("Copy key").
 */
export function CopyButton({ target, label }: { target: string; label?: string }) {
  const m = useMessages();
  return (
    <button
      type="button"
      class="secondary copy"
      data-copy={target}
      data-copied={m.t('home.connect.copied')}
      data-copy-failed={m.t('home.connect.copyFailed')}
      hidden
    >
      {label ?? m.t('home.connect.copy')}
    </button>
  );
}
