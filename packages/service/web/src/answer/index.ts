export { FORM_FIELDS, orderActions } from './answer-form.tsx';
export { AnswerPage, type AnswerPageProps, renderAnswerPage } from './answer-page.tsx';
export { fieldId, isRating, RADIO_MAX_OPTIONS } from './field-input.tsx';
export { FOLLOW_SCRIPT } from './follow-script.ts';
export { type AnswerLine, summarizeAnswer } from './own-answer.tsx';
export { qrPath } from './qr-code.tsx';
export type {
  ActionView,
  AnswerErrorView,
  AnsweredPageView,
  AnswerPageState,
  AnswerPageView,
  AskLandingPageView,
  ChatFrame,
  ClosedPageView,
  ComponentView,
  FieldSchemaView,
  FieldView,
  FormTarget,
  LapsedPageView,
  OpenPageView,
  OwnAnswerView,
  PasskeyConfirmPageView,
  PlainPageView,
  PostedValues,
  SurfaceView,
} from './view.ts';
