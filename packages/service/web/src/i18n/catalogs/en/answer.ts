/** The answer pages' messages (ICU message syntax). */
export const answer = {} as const;
