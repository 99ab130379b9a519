import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/*
 * A software FIDO2 authenticator for tests without a browser: ES256 keys, "none" attestation,
 * a signature counter, user verification on or off. It builds the same JSON a browser's
 * PublicKeyCredential.toJSON() sends, so the server code under test is the real one.
 */

const b64u = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

// The few CBOR items an attestation needs (RFC 8949 major types 0, 1, 2, 3, 5).
function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
}
const int = (n: number) => (n >= 0 ? head(0, n) : head(1, -1 - n));
const bytes = (b: Uint8Array) => Buffer.concat([head(2, b.length), Buffer.from(b)]);
const text = (s: string) => Buffer.concat([head(3, Buffer.byteLength(s)), Buffer.from(s)]);
const map = (entries: Array<[Buffer, Buffer]>) => Buffer.concat([head(5, entries.length), ...entries.flat()]);

export interface SoftCredential {
  id: string;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

export interface CeremonyOptions {
  challenge: string;
  user?: { id: string };
  rpId?: string;
  rp?: { id?: string };
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  /** Whether the device verifies its person (fingerprint, PIN): the UV flag. */
  userVerified = true;
  /** How much the counter moves per assertion (0: an authenticator that keeps none). */
  counterStep = 1;

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {}

  private flags(attested: boolean): number {
    return 0x01 | (this.userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
  }

  /** navigator.credentials.create(): a new ES256 credential, as RegistrationResponseJSON. */
  create(options: CeremonyOptions): Record<string, unknown> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = map([
      [int(1), int(2)],
      [int(3), int(-7)],
      [int(-1), int(1)],
      [int(-2), bytes(Buffer.from(jwk.x!, 'base64url'))],
      [int(-3), bytes(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    const credentialId = randomBytes(16);
    const length = Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([this.flags(true)]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      length,
      credentialId,
      coseKey,
    ]);
    const attestationObject = map([
      [text('fmt'), text('none')],
      [text('attStmt'), map([])],
      [text('authData'), bytes(authData)],
    ]);
    const clientDataJSON = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: this.origin,
      crossOrigin: false,
    });
    const id = b64u(credentialId);
    this.credentials.push({ id, privateKey, userHandle: options.user?.id ?? '', counter: 0 });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(Buffer.from(clientDataJSON)),
        attestationObject: b64u(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(): an assertion by `credential` (the first by default), as AuthenticationResponseJSON. */
  get(
    options: CeremonyOptions,
    credential: SoftCredential = this.credentials[0]!,
    origin = this.origin,
  ): Record<string, unknown> {
    credential.counter += this.counterStep;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([this.flags(false)]), counter]);
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }),
    );
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64u(clientDataJSON),
        authenticatorData: b64u(authData),
        signature: b64u(signature),
        userHandle: credential.userHandle || undefined,
      },
      clientExtensionResults: {},
    };
  }
}
