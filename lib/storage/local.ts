import { createHmac } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config';
import { forbidden, invalidField } from '../errors';
import type { ObjectStorage, PresignOptions, StoredObject } from './index';
import { sameBytes } from '../tokens';

export type SignedOp = 'put' | 'get';

/**
 * Files under STORAGE_DIR. Upload and download addresses point at this app (/storage/<key>) and carry
 * an expiry and an HMAC-SHA256 over (operation, key, expiry, content type, file name), checked by `verify`
 * like S3 checks its own presigned URLs. A sidecar `.meta.json` keeps the content type.
 */
export class LocalStorage implements ObjectStorage {
  readonly driver = 'local' as const;
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
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    // Write to a temporary name and rename: a reader never sees half an object.
    const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(tmp));
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    await writeFile(`${path}.meta.json`, JSON.stringify({ contentType: contentType ?? null }));
  }

  async get(key: string): Promise<Readable> {
    const path = this.path(key);
    await stat(path);
    return createReadStream(path);
  }

  async stat(key: string): Promise<StoredObject | null> {
    const path = this.path(key);
    try {
      const s = await stat(path);
      const meta = JSON.parse(await readFile(`${path}.meta.json`, 'utf8').catch(() => '{}')) as { contentType?: string | null };
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
  verify(op: SignedOp, key: string, query: Record<string, unknown>): { contentType?: string; filename?: string } {
    const exp = Number(query.exp);
    const sig = typeof query.sig === 'string' ? query.sig : '';
    const contentType = typeof query.ct === 'string' ? query.ct : undefined;
    const filename = typeof query.fn === 'string' ? query.fn : undefined;
    const expected = Buffer.from(this.sign(op, key, exp, contentType, filename), 'hex');
    const given = Buffer.from(sig, 'hex');
    if (!sameBytes(given, expected)) throw forbidden('signature_invalid', 'The address signature is invalid');
    if (!Number.isFinite(exp) || exp * 1000 < Date.now()) throw forbidden('signature_expired', 'The address has expired');
    return { contentType, filename };
  }

  private signedUrl(op: SignedOp, key: string, { expiresIn, contentType, filename }: PresignOptions): string {
    this.path(key);
    const exp = Math.floor(Date.now() / 1000) + expiresIn;
    const url = new URL(`/storage/${key.split('/').map(encodeURIComponent).join('/')}`, this.config.PUBLIC_URL);
    url.searchParams.set('op', op);
    url.searchParams.set('exp', String(exp));
    if (contentType) url.searchParams.set('ct', contentType);
    if (filename) url.searchParams.set('fn', filename);
    url.searchParams.set('sig', this.sign(op, key, exp, contentType, filename));
    return url.toString();
  }

  private sign(op: SignedOp, key: string, exp: number, contentType = '', filename = ''): string {
    return createHmac('sha256', this.signingSecret).update([op, key, exp, contentType, filename].join('\n')).digest('hex');
  }

  /** Maps a key to a path inside the root; a key that would escape it is refused. */
  private path(key: string): string {
    const path = resolve(join(this.root, key));
    if (!key || key.includes('\0') || !path.startsWith(this.root + sep) || path.endsWith('.meta.json')) throw invalidField('key', 'is not a valid object key');
    return path;
  }
}
