import type { BodyRead, Logger, RateLimiter } from '@sess/core';
import type { SessPrincipal } from '@sess/interactions';
import type { Deadline } from './deadline.ts';
import type { CallFrames } from './fast-paths/plain-calls.ts';
import type { ToolsListCache } from './fast-paths/tools-list-cache.ts';
import type { HostAllowlist, OriginAllowlist } from './preflight.ts';
import type { RequestAdmission } from './request-admission.ts';

/** What `authenticate` sees: method, URL and headers — never the body. */
export interface AuthenticateRequest {
  method: string;
  url: string;
  headers: Headers;
}

/** The hosting runtime's authority: the principal, or nothing when there is no valid credential. */
export type Authenticate = (
  request: AuthenticateRequest,
) => Promise<SessPrincipal | null | undefined> | SessPrincipal | null | undefined;

/** One request as the pipeline sees it, whichever face it came in on. */
export interface Incoming {
  method: string;
  url: string;
  headers: Headers;
  /** The Host the request was sent to (on the web face, the URL's host when no header is present). */
  host: string | null;
  clientAddress: string;
  /** Calls `listener` if the client goes away; returns the unsubscribe. */
  onClientGone(listener: () => void): () => void;
  readBody(maxBytes: number, deadline: Deadline): Promise<BodyRead>;
  /** The request the SDK sees; the body has been read by then and is passed parsed. */
  sdkRequest(): Request;
}

/** What the steps learn about a request as they pass it on. */
export interface EdgeRequest {
  incoming: Incoming;
  deadline: Deadline;
  /** The host's admission of this request, when the host bounds requests in flight. */
  admission: RequestAdmission | undefined;
  /** Set by the authentication step. */
  principal?: SessPrincipal;
  /** Set by the body step: the parsed JSON-RPC message. */
  body?: unknown;
}

/** The edge's settings, resolved once from the handler's options and shared by every step. */
export interface EdgeSettings {
  authenticate: Authenticate;
  hosts: HostAllowlist;
  /** Appended to the wrong-Host 403 (the host's own advice). */
  wrongHostAdvice: string | undefined;
  origins: OriginAllowlist;
  requiredScopes: readonly string[];
  resourceMetadataUrl: string;
  maxBodyBytes: number;
  ipLimiter: RateLimiter | undefined;
  principalLimiter: RateLimiter | undefined;
  toolsList: ToolsListCache | undefined;
  /** The SDK's framing of a tool result, per era (also for the unsafe-key tool error); undefined when plain calls are off. */
  callFrames: CallFrames | undefined;
  /** Whether a request comes from a host that renders apps (its tools/list is not the cached one). */
  showsUi: (headers: Headers, body: unknown) => boolean;
  logger: Logger | undefined;
}

/** One check of the pipeline: a response ends the request there; nothing lets it through. */
export type Step = (request: EdgeRequest, edge: EdgeSettings) => Response | undefined | Promise<Response | undefined>;
