/** The page shell every Sess page shares: the language picker, the footer, the dates. */
export const common = {
  'common.footer': 'Sess',
  'common.language.label': 'Language',
  'common.timeZone.utc': '{time} (UTC)',
} as const;
