import type { Translation } from '../../catalog-types.ts';
import type { common as en } from '../en/common.ts';

export const common = {
  'common.footer': 'Sess',
  'common.language.label': 'Idioma',
  'common.timeZone.utc': '{time} (UTC)',
} as const satisfies Translation<typeof en>;
