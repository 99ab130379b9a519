import type { Translation } from '../../catalog-types.ts';
import type { notify as en } from '../en/notify.ts';

export const notify = {} as const satisfies Translation<typeof en>;
