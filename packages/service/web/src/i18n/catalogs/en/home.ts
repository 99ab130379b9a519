/** The home pages' messages (ICU message syntax). */
export const home = {} as const;
