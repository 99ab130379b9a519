export type {
  AcceptedAnswer,
  AnswerError,
  AnswerErrorCode,
  AnswerErrorParams,
  AnswerResult,
  AnswerValue,
  SubmittedAnswer,
} from './answer.ts';
export { validateAnswer } from './answer.ts';
export { checkAskArguments, collectAskArgumentsIssues, parseAskArguments } from './ask.ts';
export type {
  AskArguments,
  AskField,
  AskFieldType,
  BooleanAskField,
  ChoiceAskField,
  IntegerAskField,
  MultiChoiceAskField,
  NumberAskField,
  RatingAskField,
  Respondents,
  TextAskField,
} from './ask-schema.ts';
export {
  ASK_FIELD_TYPES,
  AskArgumentsSchema,
  AskFieldSchema,
  PEOPLE_MAX,
  RespondentsSchema,
  SESS_ASK_EXAMPLE,
} from './ask-schema.ts';
export type { AssuranceChoice, AssuranceLevel } from './assurance.ts';
export { ASSURANCE_CHOICES, ASSURANCE_LEVELS, AssuranceSchema, atLeast, FOR_MAX, ForSchema } from './assurance.ts';
export { hashAnswer, hashSurface } from './canonical.ts';
export { DECISION_ACTIONS, decisionActions, decisionRuleText, escalationText } from './decision.ts';
export { durationWords, FORM_WORDS, type FormWordKey, formWord, formWordsLanguage } from './form-words.ts';
export { checkRawInput, jsonByteLength, UNSAFE_KEYS } from './guard.ts';
export type { ArgumentIssue, Checked } from './issues.ts';
export { toInvalidArguments } from './issues.ts';
export type { JsonSchemaObject } from './json-schema.ts';
export { interactionJsonSchema, sessAskInputSchema, sessRequestInputSchema } from './json-schema.ts';
export { countCodePoints, LIMITS, STRUCTURE_LIMITS } from './limits.ts';
export { parseArguments } from './parse-arguments.ts';
export type {
  Action,
  ActionIntent,
  BooleanType,
  ChoiceItems,
  Component,
  FieldComponent,
  FieldType,
  HeadingComponent,
  IntegerType,
  MultiChoiceType,
  NumberType,
  RecordComponent,
  RequestArguments,
  StringType,
  Surface,
  TextComponent,
} from './schema.ts';
export {
  ACTION_INTENTS,
  ActionSchema,
  ComponentSchema,
  DEFAULT_SUBMIT_ACTION,
  ExpiresInSchema,
  FieldComponentSchema,
  FieldTypeSchema,
  RequestArgumentsSchema,
  resolveActions,
  STRING_FORMATS,
  SurfaceSchema,
} from './schema.ts';
export { RATING_MAX, RESPONDENT_NAME_FIELD, toSurface } from './to-surface.ts';
export {
  checkRequestArguments,
  checkSurfaceInput,
  collectRequestArgumentsIssues,
  collectSurfaceIssues,
  parseRequestArguments,
  parseSurface,
} from './validate.ts';
