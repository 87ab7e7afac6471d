import type { Readable } from 'node:stream';
import { Client } from 'minio';
import type { Config } from '../config';
import { contentDisposition, type ObjectStorage, type PresignOptions, type StoredObject } from './index';

/** MinIO / S3 through the minio client; presigned addresses are S3's own (SigV4). */
export class S3Storage implements ObjectStorage {
  readonly driver = 's3' as const;
  private readonly client: Client;
  private readonly bucket: string;
  private readonly region: string;

  constructor(config: Pick<Config, 'S3_ENDPOINT' | 'S3_ACCESS_KEY' | 'S3_SECRET_KEY' | 'S3_BUCKET' | 'S3_REGION'>) {
    const endpoint = new URL(config.S3_ENDPOINT);
    const useSSL = endpoint.protocol === 'https:';
    this.client = new Client({
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

  async put(key: string, body: Buffer | Readable, contentType?: string): Promise<void> {
    await this.client.putObject(this.bucket, key, body, undefined, contentType ? { 'Content-Type': contentType } : {});
  }

  get(key: string): Promise<Readable> {
    return this.client.getObject(this.bucket, key);
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await this.client.statObject(this.bucket, key);
      return { size: s.size, contentType: (s.metaData?.['content-type'] as string | undefined) ?? null, etag: s.etag ?? null };
    } catch (err) {
      if ((err as { code?: string }).code === 'NotFound' || (err as { code?: string }).code === 'NoSuchKey') return null;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, key);
  }

  presignUpload(key: string, { expiresIn }: PresignOptions): Promise<string> {
    return this.client.presignedPutObject(this.bucket, key, expiresIn);
  }

  presignDownload(key: string, { expiresIn, filename }: PresignOptions): Promise<string> {
    const headers = filename ? { 'response-content-disposition': contentDisposition(filename) } : undefined;
    return this.client.presignedGetObject(this.bucket, key, expiresIn, headers);
  }

  async ping(): Promise<void> {
    await this.client.bucketExists(this.bucket);
  }
}
