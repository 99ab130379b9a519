/** The oauth pages' messages (ICU message syntax). */
export const oauth = {} as const;
