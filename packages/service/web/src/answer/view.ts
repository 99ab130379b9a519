import type { Action, AnswerErrorParams, AnswerValue, Component, FieldComponent, FieldType, Surface } from '@sess/surface';

/*
 * What the answer page is given to render. The form's own types come from @sess/surface (type
 * imports only: no validation code reaches the pages), so the page and the form model cannot
 * drift apart.
 */

/** A field's answer type: the JSON Schema subset a Surface uses. */
export type FieldSchemaView = FieldType;
export type FieldView = FieldComponent;
export type ComponentView = Component;
export type ActionView = Action;
/** One step of a form, as the agent sent it. */
export type SurfaceView = Surface;

/** An error from validateAnswer: `field` is a field name, or null for the form (the button). */
export interface AnswerErrorView {
  readonly field: string | null;
  readonly code: string;
  /** The English message (the agent's); the page says it from `code` and `params` in the page's language. */
  readonly message: string;
  readonly params?: AnswerErrorParams | undefined;
}

/** What the browser posted, as a form posts it: one string, or a list for repeated names. */
export type PostedValues = Readonly<Record<string, string | readonly string[]>>;

/** A posted form the page needs to carry: the CSRF token and where the form posts. */
export interface FormTarget {
  /** Path the form posts to (same origin). */
  readonly action: string;
  /** The CSRF token, bound to the link and revision. */
  readonly csrf: string;
}

/**
 * Where a Surface is drawn inside an agent's chat (the MCP App view, `../chat/`) instead of on its
 * own page: there is no CSRF token or form action (the view's script sends the answer through the
 * app-only tool), and every link that leaves the iframe is absolute on the links' origin and is
 * opened by the host (`data-open-link`, `ui/open-link`).
 */
export interface ChatFrame {
  /** The links' origin (`https://sess.example`), for the receipt and other pages of the link. */
  readonly origin: string;
  /** The person's own full link, for "Answer on my phone" and the QR code on a computer. */
  readonly link?: string | undefined;
}

/** The form of an open link. */
export interface OpenPageView {
  readonly state: 'open';
  readonly surface: SurfaceView;
  readonly revision: number;
  readonly form: FormTarget;
  /** The person's values after a refused post; without them the surface's initial values show. */
  readonly posted?: PostedValues | undefined;
  readonly errors?: readonly AnswerErrorView[] | undefined;
  /** When the link stops taking answers, with the current time, for "closes in about …". */
  readonly expiresAt?: Date | undefined;
  readonly now?: Date | undefined;
  /** Set on a respondent's page of an Ask: the answer completes this page. */
  readonly respondent?: boolean | undefined;
  /** A `passkey` form: the page says, before the person chooses, that a passkey confirmation follows. */
  readonly passkeyNext?: boolean | undefined;
  /** The page's own full link (on the links' origin), for "Answer on your phone" on a computer. */
  readonly link?: string | undefined;
}

/**
 * The confirm step of a `passkey` form: the answer the person posted, checked but not sent, to
 * be confirmed with their passkey. The form posts the same values again (hidden), with the
 * assertion the page's script gets from `navigator.credentials.get` for `options`.
 */
export interface PasskeyConfirmPageView {
  readonly state: 'passkey_confirm';
  readonly surface: SurfaceView;
  readonly revision: number;
  readonly form: FormTarget;
  /** The answer as it will be stored (for the summary the person confirms). */
  readonly answer: { readonly actionId: string; readonly values: Readonly<Record<string, AnswerValue>> };
  /** What the browser posted, carried again as hidden inputs, and the button pressed. */
  readonly posted: PostedValues;
  readonly actionId?: string | undefined;
  /** The WebAuthn request options (JSON, base64url strings) of the ceremony bound to this answer. */
  readonly options: unknown;
  /** Why the last confirmation was refused (nothing was sent): a passkey refusal's reason. */
  readonly refusal?: string | undefined;
}

/** The answer this link already holds, as the person gave it, with where to download its receipt. */
export interface OwnAnswerView {
  /** The Surface the answer was given to (for labels of fields, options and the button). */
  readonly surface: SurfaceView;
  readonly actionId: string;
  readonly values: Readonly<Record<string, AnswerValue>>;
  /** Path of the receipt download (`/s/<token>/receipt`). */
  readonly receiptPath: string;
  /** How sure Sess was of who answered, as the receipt signs it (`link` when left out). */
  readonly assurance?: 'link' | 'account' | 'passkey' | undefined;
}

/** The answer was accepted; the page follows the session until the agent's next step. */
export interface AnsweredPageView {
  readonly state: 'answered';
  /** The language the agent wrote the form in (its Surface's `locale`), for the page's language and `lang`. */
  readonly locale?: string | undefined;
  readonly title: string;
  readonly revision: number;
  /** Path of the page itself (the no-JavaScript "check again" link and the script's base). */
  readonly pagePath: string;
  /** A line above the status. */
  readonly notice?: string | undefined;
  /** The person's answer, in short, with its receipt. */
  readonly answer?: OwnAnswerView | undefined;
  /** Set when this browser's answer was refused because another one was sent first. */
  readonly alreadyAnswered?: boolean | undefined;
}

export interface ClosedPageView {
  readonly state: 'completed' | 'withdrawn' | 'expired';
  /** The language the agent wrote the form in (its Surface's `locale`), for the page's language and `lang`. */
  readonly locale?: string | undefined;
  readonly title?: string | undefined;
  readonly notice?: string | undefined;
  /** On `completed`: the person's answer, in short, with its receipt. */
  readonly answer?: OwnAnswerView | undefined;
  /** Set when this browser's answer was refused because another one was sent first. */
  readonly alreadyAnswered?: boolean | undefined;
  /** An Ask that decides, once decided: its outcome ("Already decided" on a page not answered). */
  readonly decided?: 'approved' | 'rejected' | undefined;
}

export interface LapsedPageView {
  readonly state: 'lapsed';
  /** The language the agent wrote the form in (its Surface's `locale`), for the page's language and `lang`. */
  readonly locale?: string | undefined;
  readonly title: string;
  /** Present when the person may ask for more time. */
  readonly extend?: FormTarget | undefined;
  readonly notice?: string | undefined;
}

/** The shared link of an Ask, before this browser started. */
export interface AskLandingPageView {
  readonly state: 'ask';
  /** The language the agent wrote the form in (its Surface's `locale`), for the page's language and `lang`. */
  readonly locale?: string | undefined;
  readonly title: string;
  readonly description?: string | undefined;
  /** Present while a new respondent can start. */
  readonly start?: FormTarget | undefined;
  /** Why no one can start: every place is taken for now, or the Ask is over. */
  readonly closed?: 'full' | 'closed' | undefined;
  /** An Ask that decides, once decided: its outcome. */
  readonly decided?: 'approved' | 'rejected' | undefined;
  readonly notice?: string | undefined;
  /** Path of the page itself, for "Try again" when every place is taken. */
  readonly pagePath?: string | undefined;
  /** The Ask's full link, for "Answer on your phone" on a computer. */
  readonly link?: string | undefined;
}

/**
 * Pages without a form to show: unknown link, refused post, server trouble, and `someone_else`: a
 * form that needs the signed-in account it is for, opened by another account (it never says whose).
 */
export interface PlainPageView {
  readonly state: 'not_found' | 'refused' | 'too_large' | 'unavailable' | 'someone_else' | 'no_passkey';
  /** For `refused`: the page to open again. */
  readonly pagePath?: string | undefined;
  /**
   * For `someone_else`: the account page, where the person signs out to sign in as someone else;
   * for `no_passkey`: the passkeys page, where they add one.
   */
  readonly accountPath?: string | undefined;
}

export type AnswerPageView =
  | OpenPageView
  | PasskeyConfirmPageView
  | AnsweredPageView
  | ClosedPageView
  | LapsedPageView
  | AskLandingPageView
  | PlainPageView;

export type AnswerPageState = AnswerPageView['state'];
