import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software authenticator: an EC P-256 key pair of node:crypto, real attestation objects ("none" format, CBOR)
 * and real ES256-signed assertions over authenticatorData and the hash of clientDataJSON, so the server verifies
 * real cryptography. `counter` is the signature counter it will send next.
 */
export class SoftAuthenticator {
  readonly credentialId = createHash('sha256').update(String(Math.random())).digest().subarray(0, 16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 1;

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
  ) {}

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  private authData(flags: number, attested?: Buffer, rpId = this.rpId): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const rpIdHash = createHash('sha256').update(rpId).digest();
    return Buffer.concat([rpIdHash, Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The JSON of navigator.credentials.create() for these options (their challenge). */
  attest(options: { challenge: string }) {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, Buffer.from(isoCBOR.encode(cose))]);
    const authData = this.authData(0x01 | 0x04 | 0x40, attested);
    this.counter += 1;
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, never> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge).toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
    };
  }

  /** The JSON of navigator.credentials.get() for these options, signed; the counter then moves on. */
  assert(options: { challenge: string }, tweak: { origin?: string; rpId?: string; key?: KeyObject } = {}) {
    const authData = this.authData(0x01 | 0x04, undefined, tweak.rpId);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tweak.origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]);
    const signature = sign('sha256', signed, tweak.key ?? this.keys.privateKey);
    this.counter += 1;
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
      },
    };
  }
}

/** Another key pair's private key: a signature with it is a tampered one. */
export const strangerKey = (): KeyObject => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
