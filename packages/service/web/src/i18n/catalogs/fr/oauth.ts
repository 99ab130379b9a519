import type { Translation } from '../../catalog-types.ts';
import type { oauth as en } from '../en/oauth.ts';

export const oauth = {} as const satisfies Translation<typeof en>;
