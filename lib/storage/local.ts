import { createHmac, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, rename, rm, stat, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config';
import { forbidden, invalidField, tooLarge } from '../errors';
import type { ObjectStorage, PresignOptions, StoredObject } from './index';
import { sameBytes } from '../tokens';

export type SignedOp = 'put' | 'get';

/** What a verified address allows. */
export interface SignedAddress {
  contentType?: string;
  filename?: string;
  /** Most bytes an upload address takes (absent: no size was signed). */
  size?: number;
}

/**
 * The source piped through a limit of `maxBytes`, which fails past them. Piped, not pipelined: a body refused
 * midway leaves its source alone (an HTTP request whose 413 is still to be answered); a source that fails or
 * stops early (a client gone) fails the limit, since pipe() forwards neither.
 */
function limited(source: Readable, maxBytes: number): Readable {
  let seen = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      done(
        seen > maxBytes
          ? tooLarge('payload_too_large', `The object is larger than the ${maxBytes} bytes this address takes`)
          : null,
        chunk,
      );
    },
  });
  source.once('error', (err) => limit.destroy(err));
  source.once('close', () => {
    if (!source.readableEnded) limit.destroy(new Error('The body stopped before its end'));
  });
  return source.pipe(limit);
}

/** Gives the file at `from` the name `to` unless `to` exists (atomic, never replaces): false when it does. */
async function linkNew(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Files under STORAGE_DIR. Upload and download addresses point at this app (/storage/<key>) and carry
 * an expiry and an HMAC-SHA256 over (operation, key, expiry, content type, file name, size), checked by
 * `verify` like S3 checks its own presigned URLs. A sidecar `.meta.json` keeps the content type.
 */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  readonly uploadsAreFinal = true;
  private readonly root: string;

  constructor(
    private readonly config: Pick<Config, 'STORAGE_DIR' | 'PUBLIC_URL'>,
    private readonly signingSecret: string,
  ) {
    this.root = resolve(config.STORAGE_DIR);
  }

  async ensureBucket(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  async put(key: string, body: Buffer | Readable, contentType?: string): Promise<void> {
    await this.write(key, body, contentType, false);
  }

  /**
   * Stores a new object of at most `maxBytes` (a larger body is 413 `payload_too_large`, nothing stored); never
   * replaces one: false when the key already holds an object.
   */
  putNew(key: string, body: Readable, contentType: string | undefined, maxBytes: number): Promise<boolean> {
    return this.write(key, body, contentType, true, maxBytes);
  }

  private async write(
    key: string,
    body: Buffer | Readable,
    contentType: string | undefined,
    exclusive: boolean,
    maxBytes?: number,
  ): Promise<boolean> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    // Write to a temporary name, then rename (or link, which never replaces): a reader never sees half an object.
    const tmp = `${path}.${randomUUID()}.tmp`;
    try {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(maxBytes === undefined ? source : limited(source, maxBytes), createWriteStream(tmp));
      if (!exclusive) await rename(tmp, path);
      else if (!(await linkNew(tmp, path))) return false;
    } finally {
      await rm(tmp, { force: true });
    }
    await writeFile(`${path}.meta.json`, JSON.stringify({ contentType: contentType ?? null }));
    return true;
  }

  async get(key: string): Promise<Readable> {
    const path = this.path(key);
    await stat(path);
    return createReadStream(path);
  }

  async getRange(key: string, start: number, end: number): Promise<Readable> {
    const path = this.path(key);
    await stat(path);
    return createReadStream(path, { start, end });
  }

  async stat(key: string): Promise<StoredObject | null> {
    const path = this.path(key);
    try {
      const s = await stat(path);
      const meta = JSON.parse(await readFile(`${path}.meta.json`, 'utf8').catch(() => '{}')) as {
        contentType?: string | null;
      };
      return { size: s.size, contentType: meta.contentType ?? null, etag: `${s.size}-${s.mtimeMs}` };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    const path = this.path(key);
    await rm(path, { force: true });
    await rm(`${path}.meta.json`, { force: true });
  }

  async copy(from: string, to: string, etag: string): Promise<boolean> {
    const source = await this.stat(from);
    if (source?.etag !== etag) return false;
    await this.put(to, await this.get(from), source.contentType ?? undefined);
    return true;
  }

  async presignUpload(key: string, options: PresignOptions): Promise<string> {
    return this.signedUrl('put', key, options);
  }

  async presignDownload(key: string, options: PresignOptions): Promise<string> {
    return this.signedUrl('get', key, options);
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  /** Checks a signed address; throws 403 problems for a tampered or expired one. */
  verify(op: SignedOp, key: string, query: Record<string, unknown>): SignedAddress {
    const exp = Number(query.exp);
    const sig = typeof query.sig === 'string' ? query.sig : '';
    const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    const [contentType, filename, size] = [text('ct'), text('fn'), text('len')];
    const expected = Buffer.from(this.sign(op, key, exp, contentType, filename, size), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (!sameBytes(given, expected)) throw forbidden('signature_invalid', 'The address signature is invalid');
    if (!Number.isFinite(exp) || exp * 1000 < Date.now())
      throw forbidden('signature_expired', 'The address has expired');
    return { contentType, filename, size: size ? Number(size) : undefined };
  }

  private signedUrl(op: SignedOp, key: string, { expiresIn, contentType, filename, size }: PresignOptions): string {
    this.path(key);
    const exp = Math.floor(Date.now() / 1000) + expiresIn;
    const len = size === undefined ? undefined : String(size);
    const url = new URL(`/storage/${key.split('/').map(encodeURIComponent).join('/')}`, this.config.PUBLIC_URL);
    url.searchParams.set('op', op);
    url.searchParams.set('exp', String(exp));
    if (contentType) url.searchParams.set('ct', contentType);
    if (filename) url.searchParams.set('fn', filename);
    if (len) url.searchParams.set('len', len);
    url.searchParams.set('sig', this.sign(op, key, exp, contentType, filename, len));
    return url.toString();
  }

  // Always six fields: with a fixed count no value can be moved into another (e.g. a size dropped into the name).
  private sign(op: SignedOp, key: string, exp: number, contentType = '', filename = '', size = ''): string {
    return createHmac('sha256', this.signingSecret)
      .update([op, key, exp, contentType, filename, size].join('\n'))
      .digest('hex');
  }

  /** Maps a key to a path inside the root; a key that would escape it is refused. */
  private path(key: string): string {
    const path = resolve(join(this.root, key));
    if (!key || key.includes('\0') || !path.startsWith(this.root + sep) || path.endsWith('.meta.json'))
      throw invalidField('key', 'is not a valid object key');
    return path;
  }
}
