import type { Translation } from '../../catalog-types.ts';
import type { chat as en } from '../en/chat.ts';

export const chat = {} as const satisfies Translation<typeof en>;
