import type { Translation } from '../../catalog-types.ts';
import type { account as en } from '../en/account.ts';

export const account = {} as const satisfies Translation<typeof en>;
