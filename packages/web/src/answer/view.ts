/*
 * What the answer page is given to render. These are structural mirrors of @sess/surface's
 * Surface (a Surface is assignable to SurfaceView), so @sess/web renders what it is handed and
 * imports no data layer or validation code.
 */

/** A field's answer type: the JSON Schema subset a Surface uses. */
export type FieldSchemaView =
  | {
      readonly type: 'string';
      readonly enum?: readonly string[] | undefined;
      readonly option_labels?: readonly string[] | undefined;
      readonly format?: string | undefined;
    }
  | { readonly type: 'number' | 'integer'; readonly minimum?: number | undefined; readonly maximum?: number | undefined }
  | { readonly type: 'boolean' }
  | {
      readonly type: 'array';
      readonly items: { readonly enum: readonly string[]; readonly option_labels?: readonly string[] | undefined };
    };

export interface FieldView {
  readonly type: 'field';
  readonly name: string;
  readonly label: string;
  readonly description?: string | undefined;
  readonly multiline?: boolean | undefined;
  readonly required?: boolean | undefined;
  readonly value?: string | number | boolean | readonly string[] | undefined;
  readonly schema: FieldSchemaView;
}

export type ComponentView =
  | { readonly type: 'heading'; readonly text: string }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'record'; readonly label: string; readonly fields: Readonly<Record<string, string>> }
  | FieldView;

export interface ActionView {
  readonly id: string;
  readonly label: string;
  readonly intent: 'approve' | 'reject' | 'submit' | 'other';
}

/** One step of a form, as the agent sent it. */
export interface SurfaceView {
  readonly title: string;
  readonly description?: string | undefined;
  readonly source: { readonly components: readonly ComponentView[] };
  readonly actions?: readonly ActionView[] | undefined;
}

/** An error from validateAnswer: `field` is a field name, or null for the form (the button). */
export interface AnswerErrorView {
  readonly field: string | null;
  readonly code: string;
  readonly message: string;
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
}

/** The answer was accepted; the page follows the session until the agent's next step. */
export interface AnsweredPageView {
  readonly state: 'answered';
  readonly title: string;
  readonly revision: number;
  /** Path of the page itself (the no-JavaScript "check again" link and the script's base). */
  readonly pagePath: string;
  /** A line above the status, e.g. after a second submit. */
  readonly notice?: string | undefined;
}

export interface ClosedPageView {
  readonly state: 'completed' | 'withdrawn' | 'expired';
  readonly title?: string | undefined;
  readonly notice?: string | undefined;
}

export interface LapsedPageView {
  readonly state: 'lapsed';
  readonly title: string;
  /** Present when the person may ask for more time. */
  readonly extend?: FormTarget | undefined;
  readonly notice?: string | undefined;
}

/** The shared link of an Ask, before this browser started. */
export interface AskLandingPageView {
  readonly state: 'ask';
  readonly title: string;
  readonly description?: string | undefined;
  /** Present while a new respondent can start. */
  readonly start?: FormTarget | undefined;
  /** Why no one can start: every place is taken for now, or the Ask is over. */
  readonly closed?: 'full' | 'closed' | undefined;
  readonly notice?: string | undefined;
}

/** Pages without a link behind them: unknown link, refused post, server trouble. */
export interface PlainPageView {
  readonly state: 'not_found' | 'refused' | 'too_large' | 'unavailable';
  /** For `refused`: the page to open again. */
  readonly pagePath?: string | undefined;
}

export type AnswerPageView =
  | OpenPageView
  | AnsweredPageView
  | ClosedPageView
  | LapsedPageView
  | AskLandingPageView
  | PlainPageView;

export type AnswerPageState = AnswerPageView['state'];
