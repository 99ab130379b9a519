import { isSessError } from '@sess/core';
import { describe, expect, it } from 'vitest';
import { readPluginConfig } from './read-plugin-config.ts';

const STATE = '/home/owner/.openclaw';

function refusal(env: Record<string, string>) {
  try {
    readPluginConfig(env, STATE);
  } catch (error) {
    if (isSessError(error)) return error;
    throw error;
  }
  throw new Error('expected NOT_CONFIGURED');
}

describe('readPluginConfig origins', () => {
  it('takes plain http to localhost, 127.0.0.0/8 and [::1] with no flag, for the API and the issuer', () => {
    for (const origin of ['http://localhost:8787', 'http://127.0.0.1:9123/', 'http://127.5.6.7:1', 'http://[::1]:8787']) {
      const config = readPluginConfig({ SESS_API_ORIGIN: origin, SESS_RECEIPT_ISSUER: origin }, STATE);
      expect(config.origin).toBe(new URL(origin).origin);
      expect(config.receiptIssuer).toBe(new URL(origin).origin);
    }
  });

  it.each([['http://192.168.1.23:8787'], ['http://sess.example'], ['http://localhost.example.com'], ['https://sess.example/v1']])(
    'refuses %s as NOT_CONFIGURED naming the variable and the rule, never the value',
    (origin) => {
      const error = refusal({ SESS_API_ORIGIN: origin });
      expect(error.code).toBe('NOT_CONFIGURED');
      expect(error.message).toContain('SESS_API_ORIGIN');
      expect(error.message).toContain('plain http:// only to this computer');
      expect(error.message).not.toContain(new URL(origin).host);
    },
  );

  it('ignores the retired SESS_OPENCLAW_TEST_ALLOW_INSECURE_LOCALHOST, whatever its value', () => {
    for (const value of ['1', '0', 'yes']) {
      const env = { SESS_OPENCLAW_TEST_ALLOW_INSECURE_LOCALHOST: value };
      expect(readPluginConfig({ ...env, SESS_API_ORIGIN: 'http://localhost:8787' }, STATE).origin).toBe('http://localhost:8787');
      expect(refusal({ ...env, SESS_API_ORIGIN: 'http://10.0.0.1' }).code).toBe('NOT_CONFIGURED');
    }
  });
});
