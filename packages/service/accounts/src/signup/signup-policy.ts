/**
 * Who may create an account (`SESS_SIGNUP`): `open` — anyone; `invite` — only with a one-time
 * invite link; `closed` — nobody on the web (the CLI `sess user create` still can). The
 * first-account link printed on an empty database works under every policy.
 */
export type SignupPolicy = 'open' | 'invite' | 'closed';

export const SIGNUP_POLICIES = ['open', 'invite', 'closed'] as const satisfies readonly SignupPolicy[];
