import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { S3Storage } from '../../lib/storage/s3';
import { LocalStorage } from '../../lib/storage/local';
import { publishedDocument, requestProblem } from '../support/openapi';
import { s3Env, startS3, type S3Server } from '../support/s3';
import { startStack, type TestStack } from '../support/stack';

describe('object storage: local adapter with app-signed addresses', () => {
  let stack: TestStack;
  let storage: LocalStorage;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    storage = stack.services.storage as LocalStorage;
    await storage.ensureBucket();
  });
  afterAll(() => stack.close());

  it('is the default without S3_ENDPOINT', () => {
    expect(stack.config.storageDriver).toBe('local');
    expect(storage.driver).toBe('local');
  });

  it('uploads and downloads through signed addresses', async () => {
    const key = `tenant-a/${Date.now()}/report.txt`;
    const put = await storage.presignUpload(key, { expiresIn: 60, contentType: 'text/plain' });
    const up = await fetch(put, { method: 'PUT', body: 'hello storage', headers: { 'content-type': 'text/plain' } });
    expect(up.status).toBe(204);
    expect(await storage.stat(key)).toMatchObject({ size: 13, contentType: 'text/plain' });

    const get = await storage.presignDownload(key, { expiresIn: 60, filename: 'rapport été.txt' });
    const down = await fetch(get);
    expect(down.status).toBe(200);
    expect(await down.text()).toBe('hello storage');
    expect(down.headers.get('content-disposition')).toContain("filename*=UTF-8''rapport%20%C3%A9t%C3%A9.txt");
  });

  it('refuses a tampered address (403 signature_invalid)', async () => {
    const key = 'tenant-a/secret.txt';
    await storage.put(key, Buffer.from('secret'));
    const url = new URL(await storage.presignDownload(key, { expiresIn: 60 }));
    url.pathname = url.pathname.replace('secret.txt', 'other.txt');
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'signature_invalid', status: 403 });

    const forged = new URL(await storage.presignDownload(key, { expiresIn: 60 }));
    forged.searchParams.set('exp', String(Number(forged.searchParams.get('exp')) + 3600));
    expect((await fetch(forged)).status).toBe(403);

    const upload = new URL(await storage.presignDownload(key, { expiresIn: 60 }));
    const put = await fetch(upload, { method: 'PUT', body: 'overwrite' });
    expect(put.status).toBe(403);
    expect(await text(await storage.get(key))).toBe('secret');
  });

  it('refuses an expired address (403 signature_expired)', async () => {
    const key = 'tenant-a/old.txt';
    await storage.put(key, Readable.from(['old']));
    const url = await storage.presignDownload(key, { expiresIn: -1 });
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'signature_expired' });
  });

  it('takes an address whose key is percent-encoded as one path segment, as a generated client sends {key}', async () => {
    const key = `tenant-a/files/${Date.now()}-encoded.txt`;
    const oneSegment = (address: string) => {
      const url = new URL(address);
      url.pathname = `/storage/${encodeURIComponent(key)}`;
      expect(url.pathname).toContain('%2Ffiles%2F');
      return url;
    };
    const put = oneSegment(await storage.presignUpload(key, { expiresIn: 60, contentType: 'text/plain', size: 20 }));
    // The Content-Type is signed: another one is refused.
    const wrongType = await fetch(put, {
      method: 'PUT',
      body: 'encoded key',
      headers: { 'content-type': 'text/html' },
    });
    expect(wrongType.status).toBe(403);
    expect(await wrongType.json()).toMatchObject({ code: 'signature_invalid' });
    expect(
      (await fetch(put, { method: 'PUT', body: 'encoded key', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(204);
    expect(await storage.stat(key)).toMatchObject({ size: 11, contentType: 'text/plain' });

    const down = await fetch(oneSegment(await storage.presignDownload(key, { expiresIn: 60 })));
    expect(down.status).toBe(200);
    expect(await down.text()).toBe('encoded key');
    // The slash form and the encoded form name the same key; another key is still refused.
    const slashes = await fetch(await storage.presignDownload(key, { expiresIn: 60 }));
    expect(await slashes.text()).toBe('encoded key');
    const other = oneSegment(await storage.presignDownload(key, { expiresIn: 60 }));
    other.pathname = other.pathname.replace('%2Ffiles%2F', '%2Fstored%2F');
    expect((await fetch(other)).status).toBe(403);
  });

  it('documents the addresses as opaque, taking a raw body of any media type with the signed Content-Type', async () => {
    const { doc } = await publishedDocument(stack);
    const item = doc.paths['/storage/{key}'] as unknown as Record<
      'put' | 'get',
      {
        description: string;
        parameters: { name: string; description: string }[];
        requestBody?: unknown;
        responses: Record<string, { content?: object }>;
      }
    >;
    expect(item.put.requestBody).toEqual({
      required: true,
      description: expect.stringMatching(/Content-Type is signed/),
      content: { '*/*': {} },
    });
    expect(item.get.responses['200'].content).toEqual({ '*/*': {} });
    for (const op of [item.put, item.get]) {
      expect(op.description).toMatch(/opaque signed address .*upload-url .*call it as given, never build one/);
      expect(op.parameters.find((p) => p.name === 'key')?.description).toMatch(/%2F/);
    }
    expect(await requestProblem(stack, 'put', '/storage/{key}', 'any bytes', 'image/png')).toBeUndefined();
  });

  it('refuses a key escaping the storage root', async () => {
    await expect(storage.put('../escape.txt', Buffer.from('x'))).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
  });
});

describe('object storage: s3 adapter (minio client) against s3rver', () => {
  let s3: S3Server;
  let storage: S3Storage;
  beforeAll(async () => {
    s3 = await startS3();
    storage = new S3Storage({
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: 'platform-test',
      S3_REGION: 'us-east-1',
    });
    await storage.ensureBucket();
  });
  afterAll(() => s3.close());

  it('puts, stats, gets and removes objects', async () => {
    await storage.put('t1/a.json', Buffer.from('{"a":1}'), 'application/json');
    expect(await storage.stat('t1/a.json')).toMatchObject({ size: 7, contentType: 'application/json' });
    expect(await text(await storage.get('t1/a.json'))).toBe('{"a":1}');
    await storage.remove('t1/a.json');
    expect(await storage.stat('t1/a.json')).toBeNull();
  });

  it('serves presigned upload and download addresses', async () => {
    const put = await storage.presignUpload('t1/b.txt', { expiresIn: 60 });
    expect((await fetch(put, { method: 'PUT', body: 'bytes' })).status).toBe(200);
    const get = await storage.presignDownload('t1/b.txt', { expiresIn: 60, filename: 'b.txt' });
    const res = await fetch(get);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('bytes');
  });

  it('is selected by S3_ENDPOINT', async () => {
    const stack = await startStack({
      workers: false,
      env: s3Env(s3, 'platform-stack'),
    });
    try {
      expect(stack.services.storage.driver).toBe('s3');
      await stack.services.storage.ensureBucket();
      await stack.services.storage.ping();
    } finally {
      await stack.close();
    }
  });
});
