export type { Catalog, MessageKey, Translation } from './catalog-types.ts';
export { acceptedLanguages, chooseLanguage, type LanguageSources, shippedLanguageFor } from './choose-language.ts';
export { LanguagePicker, TIME_ZONE_SCRIPT } from './language-picker.tsx';
export { addLanguage, DEFAULT_LANGUAGE, findLanguage, type Language, shippedLanguages, textDirection } from './languages.ts';
export { Messages, type MessagesOptions, type MessageValues, messagesFor } from './messages.ts';
export {
  LANGUAGE_COOKIE,
  LANGUAGE_QUERY,
  type PageLanguage,
  type PageLanguageHints,
  pageLanguage,
  TIME_ZONE_COOKIE,
  withoutPicker,
} from './page-language.ts';
export { inLanguage, useMessages } from './render-scope.ts';
