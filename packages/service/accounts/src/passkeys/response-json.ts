import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { z } from 'zod';

// The JSON a browser sends back from a ceremony (PublicKeyCredential.toJSON()'s shape), bounded:
// the account posts are capped at 16 KiB anyway; these caps keep each piece sane.
const b64u = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+$/);

const AssertionSchema = z.object({
  id: b64u(1400),
  rawId: b64u(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64u(4096),
    authenticatorData: b64u(4096),
    signature: b64u(1024),
    userHandle: b64u(128).optional().nullable(),
  }),
  authenticatorAttachment: z.string().max(32).optional().nullable(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

const AttestationSchema = z.object({
  id: b64u(1400),
  rawId: b64u(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64u(4096),
    attestationObject: b64u(8192),
    transports: z.array(z.string().max(32)).max(8).optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional().nullable(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
});

/** An assertion (`navigator.credentials.get`) as JSON, or null when it is not one. */
export function parseAssertion(value: unknown): AuthenticationResponseJSON | null {
  const parsed = AssertionSchema.safeParse(value);
  if (!parsed.success) return null;
  const { userHandle, ...response } = parsed.data.response;
  return {
    ...parsed.data,
    authenticatorAttachment: undefined,
    response: userHandle ? { ...response, userHandle } : response,
  } as AuthenticationResponseJSON;
}

/** An attestation (`navigator.credentials.create`) as JSON, or null when it is not one. */
export function parseAttestation(value: unknown): RegistrationResponseJSON | null {
  const parsed = AttestationSchema.safeParse(value);
  if (!parsed.success) return null;
  return { ...parsed.data, authenticatorAttachment: undefined } as RegistrationResponseJSON;
}

/** The challenge a ceremony's client data names (base64url), or null when it names none. */
export function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(isoBase64URL.toUTF8String(clientDataJSON)) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 128 ? data.challenge : null;
  } catch {
    return null;
  }
}
