import type { Readable } from 'node:stream';
import type { Config } from '../config';
import { LocalStorage } from './local';
import type { S3Storage } from './s3';

export interface StoredObject {
  size: number;
  contentType: string | null;
  etag: string | null;
}

export interface PresignOptions {
  /** Seconds the address stays valid. */
  expiresIn: number;
  contentType?: string;
  /** Suggested file name of a download: the address answers `Content-Disposition: attachment` with it. */
  filename?: string;
  /**
   * Content-Type a download is answered with instead of the stored one (S3: response-content-type). The local
   * adapter answers the stored type and ignores it (its addresses of active content carry a filename: attachment).
   */
  responseContentType?: string;
  /** Most bytes an upload may carry: signed into the local adapter's address (S3 presigned PUTs cannot sign it). */
  size?: number;
}

/** A part of a multipart upload as the store holds it. */
export interface StoredPart {
  partNumber: number;
  /** The store's ETag of the part (no quotes), to name it when completing. */
  etag: string;
  size: number;
}

/** A part named for completion: its number and the ETag its PUT answered. */
export interface PartRef {
  partNumber: number;
  etag: string;
}

/**
 * Object storage, one interface with two adapters: `s3` (the minio client, for MinIO or S3) and `local`
 * (files under STORAGE_DIR, addresses signed and verified by this app). Keys are opaque paths chosen by the
 * caller, e.g. `<tenantId>/<fileId>`.
 */
export interface ObjectStorage {
  readonly driver: 's3' | 'local';
  /**
   * Whether an object PUT through an upload address can no longer change once stored: the local adapter's
   * address takes one object, of at most the signed size, only while its upload is pending (api/system/routes.ts).
   * S3 takes any PUT until the address expires, so a confirmation copies the object it checked to a key of its own.
   */
  readonly uploadsAreFinal: boolean;
  ensureBucket(): Promise<void>;
  /** Stores an object; `size`, when known, lets S3 take a stream in one PUT (or sized parts) instead of probing. */
  put(key: string, body: Buffer | Readable, contentType?: string, size?: number): Promise<void>;
  get(key: string): Promise<Readable>;
  /** Bytes `start` to `end` (inclusive) of an object (WebDAV GET with a Range). */
  getRange(key: string, start: number, end: number): Promise<Readable>;
  stat(key: string): Promise<StoredObject | null>;
  remove(key: string): Promise<void>;
  /** Copies `from` to `to` if `from` still has this etag; false when it changed or is gone. */
  copy(from: string, to: string, etag: string): Promise<boolean>;
  presignUpload(key: string, options: PresignOptions): Promise<string>;
  presignDownload(key: string, options: PresignOptions): Promise<string>;
  /**
   * Multipart uploads (S3's CreateMultipartUpload ... CompleteMultipartUpload): the object at `key` appears only
   * when completed, from the parts named. Returns the store's id of the upload.
   */
  startMultipart(key: string, contentType: string): Promise<string>;
  /** A presigned PUT address of one part (S3: UploadPart with uploadId and partNumber); `size` bounds it where the store can. */
  presignPart(key: string, multipartId: string, partNumber: number, options: PresignOptions): Promise<string>;
  /** The parts uploaded so far, by part number; null when the store has no such multipart upload (completed or aborted). */
  listParts(key: string, multipartId: string): Promise<StoredPart[] | null>;
  /** Assembles the object from these parts (ascending); false when the store has no such multipart upload. */
  completeMultipart(key: string, multipartId: string, parts: PartRef[], contentType: string): Promise<boolean>;
  /** Drops the multipart upload and its parts; nothing when it is already gone. */
  abortMultipart(key: string, multipartId: string): Promise<void>;
  ping(): Promise<void>;
}

export function createStorage(config: Config, signingSecret: string): ObjectStorage {
  if (config.storageDriver === 'local') return new LocalStorage(config, signingSecret);
  // The S3 adapter (and the minio client) is loaded only when configured (lib/lazy.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3Storage: S3 } = require('./s3') as { S3Storage: typeof S3Storage };
  return new S3(config);
}

/** An attachment's Content-Disposition: an ASCII fallback name and the exact name in RFC 5987 form. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
