import { registerAppResource, registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import type { ListResourcesResult, ListToolsResult, ReadResourceResult } from '@modelcontextprotocol/server';
import { type ListedTool, listedViewTools } from '@sess/contract';
import { RESOURCE_MIME_TYPE } from './ui-extension.ts';

/*
 * What a host that renders apps is listed, made once: the seven tools with the form's UI on the
 * three that show a form (sess_request, sess_ask, sess_publish), the two app-only tools, and the
 * one UI resource. The `_meta` of each is put in the shape ext-apps' own server helpers give it
 * (`registerAppTool`, `registerAppResource`): they are handed a recorder instead of an McpServer,
 * since this server answers tools/list and resources/* itself (a low-level `Server` per request).
 */

/** The tools that show the form. */
export const FORM_TOOLS: ReadonlySet<string> = new Set(['sess_request', 'sess_ask', 'sess_publish']);

/** The one UI resource: a plain resource (not a template: Claude draws nothing for one), its URI versioned. */
export interface UiResource {
  uri: string;
  listing: ListResourcesResult;
  read: ReadResourceResult;
}

/** A stand-in for McpServer that keeps what the helpers register. */
function recorder() {
  const tools: Array<Record<string, unknown>> = [];
  const resources: Array<{ name: string; uri: string; config: Record<string, unknown> }> = [];
  return {
    tools,
    resources,
    registerTool(name: string, config: Record<string, unknown>) {
      tools.push({ name, ...config });
      return undefined as never;
    },
    registerResource(name: string, uri: string, config: Record<string, unknown>) {
      resources.push({ name, uri, config });
      return undefined as never;
    },
  };
}

/**
 * The resource's UI metadata: no network at all (the view talks only to the host), a border, and
 * the links' origin as the one place a link may lead (ChatGPT's `redirect_domains`; Claude takes
 * "Allowed link URIs" in a directory listing instead). No `permissions` object: ChatGPT's review
 * reads even an empty one as a request.
 */
function resourceMeta(linkOrigin: string): Record<string, unknown> {
  return {
    ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
    'openai/widgetCSP': { connect_domains: [], resource_domains: [], redirect_domains: [linkOrigin] },
    'openai/widgetDescription': 'The form Sess shows the person: answered here, or on a phone through its link.',
  };
}

/** The UI resource for the document of `version`. */
export function uiResource(document: { html: string; version: string }, linkOrigin: string): UiResource {
  const uri = `ui://sess/form-${document.version}.html`;
  const meta = resourceMeta(linkOrigin);
  const record = recorder();
  const description = 'The form the agent asks with, to answer inside the chat.';
  registerAppResource(record as never, 'sess-form', uri, { title: 'Sess form', description, _meta: meta }, () => ({
    contents: [],
  }));
  const { name, config } = record.resources[0]!;
  return {
    uri,
    listing: { resources: [{ uri, name, ...config }] } as ListResourcesResult,
    read: { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: document.html, _meta: meta }] } as ReadResourceResult,
  };
}

/** tools/list for a host that renders apps: the seven (the form's UI on three), then the app-only two. */
export function uiToolListing(tools: readonly ListedTool[], resourceUri: string): ListToolsResult {
  const record = recorder();
  const noCall = () => ({ content: [] });
  for (const tool of tools) {
    if (!FORM_TOOLS.has(tool.name)) {
      record.tools.push({ ...tool });
      continue;
    }
    registerAppTool(record as never, tool.name, { ...tool, _meta: { ui: { resourceUri } } } as never, noCall as never);
  }
  for (const tool of listedViewTools()) {
    registerAppTool(
      record as never,
      tool.name,
      { ...tool, _meta: { ui: { resourceUri, visibility: ['app'] } } } as never,
      noCall as never,
    );
  }
  return { tools: record.tools } as unknown as ListToolsResult;
}
