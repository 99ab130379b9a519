// oidc-provider ships no type declarations (and @types/oidc-provider is not installed); the
// tests use only this much of it (testkit's oidc-provider.ts).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims: () => Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: Record<string, unknown> & {
        findAccount?: (ctx: unknown, sub: string) => Promise<Account | undefined>;
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
