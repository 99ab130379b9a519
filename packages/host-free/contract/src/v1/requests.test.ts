import { newId } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RESPONSE_EVENT_ID_MAX_LENGTH } from '../common.ts';
import { toolInputJsonSchema } from '../tools/tools.ts';
import { CompleteSessionRequestSchema, IfMatchSchema, PublishSessionRequestSchema, parseIfMatchRevision } from './requests.ts';

describe('If-Match', () => {
  it.each([
    ['"3"', 3],
    ['3', 3],
    [' "12" ', 12],
    ['"999999999"', 999_999_999],
  ])('%s names revision %s, and the schema takes it', (value, revision) => {
    expect(parseIfMatchRevision(value)).toBe(revision);
    expect(IfMatchSchema.safeParse(value).success).toBe(true);
  });

  it.each(['"0"', '0', 'W/"3"', '"3', '3"', '"1234567890"', '*', '"-1"', ''])('%s names no revision', (value) => {
    expect(parseIfMatchRevision(value)).toBeUndefined();
  });
});

describe('response_event_id', () => {
  it('has one limit, on the tools and on /v1, that every answer event id Sess makes fits', () => {
    const maxLength = (schema: unknown) =>
      (schema as { properties: Record<string, { maxLength?: number }> }).properties['response_event_id']?.maxLength;
    expect(maxLength(toolInputJsonSchema('sess_publish'))).toBe(RESPONSE_EVENT_ID_MAX_LENGTH);
    expect(maxLength(toolInputJsonSchema('sess_complete'))).toBe(RESPONSE_EVENT_ID_MAX_LENGTH);
    expect(maxLength(z.toJSONSchema(PublishSessionRequestSchema))).toBe(RESPONSE_EVENT_ID_MAX_LENGTH);
    expect(maxLength(z.toJSONSchema(CompleteSessionRequestSchema))).toBe(RESPONSE_EVENT_ID_MAX_LENGTH);
    expect(newId('answer').length).toBeLessThanOrEqual(RESPONSE_EVENT_ID_MAX_LENGTH);
  });
});
