/** The errors pages' messages (ICU message syntax). */
export const errors = {} as const;
