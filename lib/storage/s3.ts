import type { Readable } from 'node:stream';
import { Client, CopyDestinationOptions, CopySourceOptions } from 'minio';
import type { Config } from '../config';
import {
  contentDisposition,
  type ObjectStorage,
  type PartRef,
  type PresignOptions,
  type StoredObject,
  type StoredPart,
} from './index';

/** Answers of S3 meaning "no such object" or "not the object asked for" (a precondition). */
const MISSING = new Set(['NotFound', 'NoSuchKey']);
const CHANGED = new Set(['PreconditionFailed', 'NoSuchKey']);
const codeOf = (err: unknown) => (err as { code?: string }).code ?? '';

/** The minio client with its ListParts (paged, protected there) reachable. */
class MinioClient extends Client {
  partsOf(bucket: string, key: string, uploadId: string) {
    return this.listParts(bucket, key, uploadId);
  }
}

/**
 * MinIO / S3 through the minio client; presigned addresses are S3's own (SigV4). A presigned PUT signs neither
 * Content-Length nor Content-Type (minio leaves both out of the signed headers, as the AWS SDKs do by default), so
 * the store takes any body until the address expires: `uploadsAreFinal` is false.
 */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3' as const;
  readonly uploadsAreFinal = false;
  private readonly client: MinioClient;
  private readonly bucket: string;
  private readonly region: string;

  constructor(config: Pick<Config, 'S3_ENDPOINT' | 'S3_ACCESS_KEY' | 'S3_SECRET_KEY' | 'S3_BUCKET' | 'S3_REGION'>) {
    const endpoint = new URL(config.S3_ENDPOINT);
    const useSSL = endpoint.protocol === 'https:';
    this.client = new MinioClient({
      endPoint: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: config.S3_ACCESS_KEY,
      secretKey: config.S3_SECRET_KEY,
      region: config.S3_REGION,
      pathStyle: true,
    });
    this.bucket = config.S3_BUCKET;
    this.region = config.S3_REGION;
  }

  async ensureBucket(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) await this.client.makeBucket(this.bucket, this.region);
  }

  async put(key: string, body: Buffer | Readable, contentType?: string, size?: number): Promise<void> {
    await this.client.putObject(this.bucket, key, body, size, contentType ? { 'Content-Type': contentType } : {});
  }

  get(key: string): Promise<Readable> {
    return this.client.getObject(this.bucket, key);
  }

  getRange(key: string, start: number, end: number): Promise<Readable> {
    return this.client.getPartialObject(this.bucket, key, start, end - start + 1);
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await this.client.statObject(this.bucket, key);
      return {
        size: s.size,
        contentType: (s.metaData?.['content-type'] as string | undefined) ?? null,
        etag: s.etag ?? null,
      };
    } catch (err) {
      if (MISSING.has(codeOf(err))) return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, key);
  }

  /** A server-side copy (metadata kept), on condition of the source's ETag (x-amz-copy-source-if-match). */
  async copy(from: string, to: string, etag: string): Promise<boolean> {
    try {
      await this.client.copyObject(
        new CopySourceOptions({ Bucket: this.bucket, Object: from, MatchETag: `"${etag}"` }),
        new CopyDestinationOptions({ Bucket: this.bucket, Object: to }),
      );
      return true;
    } catch (err) {
      if (CHANGED.has(codeOf(err))) return false;
      throw err;
    }
  }

  presignUpload(key: string, { expiresIn }: PresignOptions): Promise<string> {
    return this.client.presignedPutObject(this.bucket, key, expiresIn);
  }

  presignDownload(key: string, { expiresIn, filename, responseContentType }: PresignOptions): Promise<string> {
    const headers: Record<string, string> = {};
    if (filename) headers['response-content-disposition'] = contentDisposition(filename);
    if (responseContentType) headers['response-content-type'] = responseContentType;
    return this.client.presignedGetObject(
      this.bucket,
      key,
      expiresIn,
      Object.keys(headers).length ? headers : undefined,
    );
  }

  startMultipart(key: string, contentType: string): Promise<string> {
    return this.client.initiateNewMultipartUpload(this.bucket, key, { 'Content-Type': contentType });
  }

  /** UploadPart presigned (SigV4 over uploadId and partNumber); like a presigned PUT it cannot bound the body's size. */
  presignPart(key: string, multipartId: string, partNumber: number, { expiresIn }: PresignOptions): Promise<string> {
    return this.client.presignedUrl('PUT', this.bucket, key, expiresIn, {
      uploadId: multipartId,
      partNumber: String(partNumber),
    });
  }

  async listParts(key: string, multipartId: string): Promise<StoredPart[] | null> {
    try {
      const parts = await this.client.partsOf(this.bucket, key, multipartId);
      return parts
        .map((p) => ({ partNumber: p.part, etag: p.etag, size: p.size }))
        .sort((a, b) => a.partNumber - b.partNumber);
    } catch (err) {
      if (codeOf(err) === 'NoSuchUpload') return null;
      throw err;
    }
  }

  async completeMultipart(key: string, multipartId: string, parts: PartRef[]): Promise<boolean> {
    try {
      await this.client.completeMultipartUpload(
        this.bucket,
        key,
        multipartId,
        parts.map((p) => ({ part: p.partNumber, etag: p.etag })),
      );
      return true;
    } catch (err) {
      if (codeOf(err) === 'NoSuchUpload') return false;
      throw err;
    }
  }

  async abortMultipart(key: string, multipartId: string): Promise<void> {
    try {
      await this.client.abortMultipartUpload(this.bucket, key, multipartId);
    } catch (err) {
      if (codeOf(err) !== 'NoSuchUpload') throw err;
    }
  }

  async ping(): Promise<void> {
    await this.client.bucketExists(this.bucket);
  }
}
