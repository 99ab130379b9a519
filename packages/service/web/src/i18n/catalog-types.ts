import type { en } from './catalogs/en/index.ts';

/** Every message key Sess has: the English catalog's keys. */
export type MessageKey = keyof typeof en;

/** A language's messages: one ICU message for each key of the English area it translates. */
export type Translation<Area> = { readonly [Key in keyof Area]: string };

/** A whole language: a message for every key. */
export type Catalog = Translation<typeof en>;
