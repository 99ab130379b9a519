import type { Translation } from '../../catalog-types.ts';
import type { home as en } from '../en/home.ts';

export const home = {} as const satisfies Translation<typeof en>;
