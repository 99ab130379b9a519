import { account } from './account.ts';
import { answer } from './answer.ts';
import { chat } from './chat.ts';
import { common } from './common.ts';
import { errors } from './errors.ts';
import { home } from './home.ts';
import { notify } from './notify.ts';
import { oauth } from './oauth.ts';

/**
 * English, the source catalog: every key Sess shows a person, in ICU message syntax. The other
 * languages are typed against it (`Catalog`), so a missing or extra key fails the type check.
 */
export const en = { ...common, ...answer, ...chat, ...account, ...oauth, ...notify, ...home, ...errors } as const;
