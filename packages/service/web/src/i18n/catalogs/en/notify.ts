/** The notify pages' messages (ICU message syntax). */
export const notify = {} as const;
