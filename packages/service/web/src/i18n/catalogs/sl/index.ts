import type { Catalog } from '../../catalog-types.ts';
import { account } from './account.ts';
import { answer } from './answer.ts';
import { chat } from './chat.ts';
import { common } from './common.ts';
import { errors } from './errors.ts';
import { home } from './home.ts';
import { notify } from './notify.ts';
import { oauth } from './oauth.ts';

export const sl: Catalog = { ...common, ...answer, ...chat, ...account, ...oauth, ...notify, ...home, ...errors };
