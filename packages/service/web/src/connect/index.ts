export { ConnectAgent, MCP_URL_ID } from './connect-agent.tsx';
export {
  buildConnectView,
  type ConnectView,
  isPublicHttpsOrigin,
  MCP_PATH,
  type ServedPackageUrls,
} from './connect-view.ts';
export { CopyButton } from './copy-button.tsx';
export { COPY_SCRIPT } from './copy-script.ts';
