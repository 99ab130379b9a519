import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { buildV1OpenApiDocument } from './openapi.ts';
import { V1_ROUTES } from './routes.ts';

type Json = Record<string, unknown>;

const doc = buildV1OpenApiDocument('https://sess.test');

/** Every `$ref` in the document, with where it is. */
function refs(value: unknown, at = '#'): Array<[at: string, ref: string]> {
  if (value === null || typeof value !== 'object') return [];
  const out: Array<[string, string]> = [];
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string') out.push([at, child]);
    else out.push(...refs(child, `${at}/${key}`));
  }
  return out;
}

function resolve(pointer: string): unknown {
  let node: unknown = doc;
  for (const token of pointer.replace(/^#\//, '').split('/')) {
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Json)[key];
  }
  return node;
}

describe('the /v1 OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('would be refused by that validator with a response left without its description', async () => {
    const broken = structuredClone(doc) as { paths: Record<string, Record<string, { responses: Record<string, Json> }>> };
    delete broken.paths['/v1/sessions']!.post!.responses['201']!.description;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('resolves every $ref inside itself', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(50);
    for (const [at, ref] of all) {
      expect([at, ref.startsWith('#/')]).toEqual([at, true]);
      expect([at, ref, resolve(ref) !== undefined]).toEqual([at, ref, true]);
    }
  });

  it('has every route, each with an operation id, a summary and a schema for every status', () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const route of V1_ROUTES) {
      const op = paths[route.path]?.[route.method];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op!.operationId).toBe(route.operationId);
      const responses = op!.responses as Record<string, Json>;
      expect(Object.keys(responses).sort()).toEqual(Object.keys(route.responses).sort());
      for (const [status, value] of Object.entries(responses)) {
        const content = value.content as Record<string, { schema: Json }>;
        expect([route.operationId, status, Object.values(content)[0]?.schema]).not.toEqual([
          route.operationId,
          status,
          undefined,
        ]);
      }
    }
    const operations = Object.values(paths).flatMap((item) => Object.values(item));
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
  });

  it('documents the bearer scheme, Idempotency-Key on every write and If-Match on revision writes', () => {
    const components = doc.components as Json;
    expect((components.securitySchemes as Json).apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const route of V1_ROUTES) {
      const names = ((paths[route.path]![route.method]!.parameters ?? []) as Json[]).map((p) => p.$ref ?? p.name);
      expect(names.includes('#/components/parameters/IdempotencyKey')).toBe(route.method === 'post');
      expect(names.includes('#/components/parameters/IfMatch')).toBe(
        route.path.endsWith('/publish') || route.path.endsWith('/complete'),
      );
      if (!route.authenticated) expect(paths[route.path]![route.method]!.security).toEqual([]);
    }
  });

  it('puts Sess-Workspace-Id on every authenticated answer but the 401, and ETag on session reads and writes', () => {
    for (const route of V1_ROUTES.filter((r) => r.authenticated)) {
      for (const [status, response] of Object.entries(route.responses)) {
        expect([route.operationId, status, response.headers.includes('Sess-Workspace-Id')]).toEqual([
          route.operationId,
          status,
          status !== '401',
        ]);
      }
    }
    for (const id of ['createSession', 'readSession', 'publishSession', 'completeSession']) {
      const route = V1_ROUTES.find((r) => r.operationId === id)!;
      const success = Object.entries(route.responses).find(([status]) => status.startsWith('2'))!;
      expect(success[1].headers).toContain('ETag');
    }
  });

  it('compiles as JSON Schema 2020-12, every component', () => {
    const ajv = addFormats(new Ajv2020({ strict: false }));
    ajv.addSchema({ $id: 'doc', ...(doc as Json) });
    for (const name of Object.keys((doc.components as { schemas: Json }).schemas)) {
      expect(() => ajv.getSchema(`doc#/components/schemas/${name}`)).not.toThrow();
    }
  });

  it('is built once: the same components and paths for every server', () => {
    expect(buildV1OpenApiDocument('https://a.test').paths).toBe(buildV1OpenApiDocument('https://b.test').paths);
    expect(buildV1OpenApiDocument('https://a.test').servers).toEqual([{ url: 'https://a.test' }]);
  });
});
