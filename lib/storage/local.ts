import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, mkdir, readdir, rename, rm, stat, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config';
import { conflict, forbidden, invalidField, tooLarge } from '../errors';
import type { ObjectStorage, PartRef, PresignOptions, StoredObject, StoredPart } from './index';
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

/** What a verified part address allows: the part it writes, of at most `size` bytes. */
export interface SignedPart {
  multipartId: string;
  partNumber: number;
  size?: number;
}

/** The local adapter's multipart ids: 32 hex digits. */
const MULTIPART_ID = /^[0-9a-f]{32}$/;
/** A stored part's file name: `<partNumber>.<md5 hex>` (its ETag), so a part and its ETag change in one rename. */
const PART_FILE = /^([1-9][0-9]{0,4})\.([0-9a-f]{32})$/;
const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

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
  /** Parts of multipart uploads in progress, one folder each (never reachable as a key). */
  private readonly partsRoot: string;

  constructor(
    private readonly config: Pick<Config, 'STORAGE_DIR' | 'PUBLIC_URL'>,
    private readonly signingSecret: string,
  ) {
    this.root = resolve(config.STORAGE_DIR);
    this.partsRoot = join(this.root, '.multipart');
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

  async startMultipart(key: string): Promise<string> {
    this.path(key);
    const id = randomBytes(16).toString('hex');
    await mkdir(this.partsDir(id), { recursive: true });
    await writeFile(join(this.partsDir(id), 'upload.json'), JSON.stringify({ key }));
    return id;
  }

  /** An address of this app like an upload's, for PUT `/storage/<key>?uploadId=&partNumber=` (the pair signed). */
  async presignPart(key: string, multipartId: string, partNumber: number, options: PresignOptions): Promise<string> {
    const url = new URL(this.signedUrl(this.partOp(multipartId, partNumber), key, options));
    url.searchParams.set('uploadId', multipartId);
    url.searchParams.set('partNumber', String(partNumber));
    return url.toString();
  }

  /** Checks a signed part address (403 problems as `verify`). */
  verifyPart(key: string, query: Record<string, unknown>): SignedPart {
    const multipartId = typeof query.uploadId === 'string' ? query.uploadId : '';
    const partNumber = Number(query.partNumber);
    if (!MULTIPART_ID.test(multipartId) || !Number.isInteger(partNumber))
      throw forbidden('signature_invalid', 'The address signature is invalid');
    const { size } = this.verify(this.partOp(multipartId, partNumber), key, query);
    return { multipartId, partNumber, size };
  }

  /**
   * Stores one part (replacing an earlier PUT of the same number, as S3 does) of at most `maxBytes` (413); null when
   * there is no such multipart upload of this key (completed or aborted).
   */
  async putPart(
    key: string,
    multipartId: string,
    partNumber: number,
    body: Readable,
    maxBytes: number,
  ): Promise<StoredPart | null> {
    if (!(await this.ownsParts(key, multipartId))) return null;
    const dir = this.partsDir(multipartId);
    const tmp = join(dir, `${randomUUID()}.tmp`);
    const md5 = createHash('md5');
    let size = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(limited(body, maxBytes), hashing, createWriteStream(tmp));
      const etag = md5.digest('hex');
      await rename(tmp, join(dir, `${partNumber}.${etag}`));
      // The earlier PUTs of this part go: the newest file stays (listParts takes the newest meanwhile).
      for (const name of await readdir(dir))
        if (name.startsWith(`${partNumber}.`) && name !== `${partNumber}.${etag}`)
          await rm(join(dir, name), { force: true });
      return { partNumber, etag, size };
    } catch (err) {
      if (isMissing(err)) return null; // aborted or completed meanwhile
      throw err;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async listParts(key: string, multipartId: string): Promise<StoredPart[] | null> {
    if (!(await this.ownsParts(key, multipartId))) return null;
    const dir = this.partsDir(multipartId);
    const newest = new Map<number, StoredPart & { at: number }>();
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const match = PART_FILE.exec(name);
      if (!match) continue;
      const s = await stat(join(dir, name)).catch(() => null);
      if (!s) continue;
      const part = { partNumber: Number(match[1]), etag: match[2], size: s.size, at: s.mtimeMs };
      const seen = newest.get(part.partNumber);
      if (!seen || seen.at < part.at) newest.set(part.partNumber, part);
    }
    return [...newest.values()]
      .map(({ partNumber, etag, size }) => ({ partNumber, etag, size }))
      .sort((a, b) => a.partNumber - b.partNumber);
  }

  /** Concatenates the named parts into the object (409 `part_changed` when one is no longer there with that ETag). */
  async completeMultipart(key: string, multipartId: string, parts: PartRef[], contentType: string): Promise<boolean> {
    if (!(await this.ownsParts(key, multipartId))) return false;
    const dir = this.partsDir(multipartId);
    const files = parts.map((p) => join(dir, `${p.partNumber}.${p.etag}`));
    for (const [i, file] of files.entries())
      if (!(await stat(file).catch(() => null)))
        throw conflict('part_changed', `Part ${parts[i].partNumber} changed or is gone; list the parts again`);
    async function* concatenated() {
      for (const file of files) yield* createReadStream(file);
    }
    await this.write(key, Readable.from(concatenated()), contentType, false);
    await rm(dir, { recursive: true, force: true });
    return true;
  }

  async abortMultipart(_key: string, multipartId: string): Promise<void> {
    if (MULTIPART_ID.test(multipartId)) await rm(this.partsDir(multipartId), { recursive: true, force: true });
  }

  private partOp(multipartId: string, partNumber: number): `part ${string}` {
    return `part ${multipartId} ${partNumber}`;
  }

  private partsDir(multipartId: string): string {
    if (!MULTIPART_ID.test(multipartId)) throw invalidField('uploadId', 'is not a multipart upload id');
    return join(this.partsRoot, multipartId);
  }

  /** Whether this multipart upload exists and is the one of `key`. */
  private async ownsParts(key: string, multipartId: string): Promise<boolean> {
    if (!MULTIPART_ID.test(multipartId)) return false;
    try {
      const meta = JSON.parse(await readFile(join(this.partsDir(multipartId), 'upload.json'), 'utf8')) as {
        key?: string;
      };
      return meta.key === key;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** Checks a signed address; throws 403 problems for a tampered or expired one. */
  verify(op: SignedOp | `part ${string}`, key: string, query: Record<string, unknown>): SignedAddress {
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

  private signedUrl(
    op: SignedOp | `part ${string}`,
    key: string,
    { expiresIn, contentType, filename, size }: PresignOptions,
  ): string {
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
  private sign(op: string, key: string, exp: number, contentType = '', filename = '', size = ''): string {
    return createHmac('sha256', this.signingSecret)
      .update([op, key, exp, contentType, filename, size].join('\n'))
      .digest('hex');
  }

  /** Maps a key to a path inside the root; a key that would escape it is refused. */
  private path(key: string): string {
    const path = resolve(join(this.root, key));
    if (
      !key ||
      key.includes('\0') ||
      !path.startsWith(this.root + sep) ||
      path.endsWith('.meta.json') ||
      path === this.partsRoot ||
      path.startsWith(this.partsRoot + sep)
    )
      throw invalidField('key', 'is not a valid object key');
    return path;
  }
}
