import type { Translation } from '../../catalog-types.ts';
import type { answer as en } from '../en/answer.ts';

export const answer = {} as const satisfies Translation<typeof en>;
