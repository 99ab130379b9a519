/** The account pages' messages (ICU message syntax). */
export const account = {} as const;
