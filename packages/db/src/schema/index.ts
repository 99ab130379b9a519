export { apiKeys, memberships, users, workspaces } from './accounts.ts';
