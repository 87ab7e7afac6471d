import { createHash, randomBytes } from 'node:crypto';
import { CloudUpload } from '../../entities/cloud/upload';
import { sweepCloud } from '../../domain/cloud/sweepCloud';
import { download, setTierQuota } from '../support/cloud';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { s3Env, startS3, type S3Server } from '../support/s3';
import { startStack, type TestStack } from '../support/stack';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** Small parts (s3rver and the local adapter take parts under S3's 5 MiB): files of a few hundred KiB. */
const PART = 64 * 1024;

interface Started {
  uploadId: string;
  partSize: number;
  partCount: number;
  expiresAt: string;
}
interface PartUrl {
  partNumber: number;
  url: string;
  method: string;
  size: number;
  expiresAt: string;
}

describe.each(['local', 's3'] as const)('resumable uploads in parts (%s storage)', (driver) => {
  let s3: S3Server | null = null;
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3();
    const env: Record<string, string> = {
      CLOUD_MULTIPART_PART_SIZE_MIN: String(PART),
      ...s3Env(s3, 'cloud-mp'),
    };
    stack = await startStack({ workers: false, env });
    await stack.services.storage.ensureBucket();
    owner = await createAccount(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await s3?.close();
  });

  const quota = async () => (await stack.http.get('/api/cloud/quota').set(owner.auth)).body;
  const start = async (body: Record<string, unknown>): Promise<Started> => {
    const res = await stack.http.post('/api/cloud/uploads').set(owner.auth).send(body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const partUrls = async (id: string, partNumbers: number[]): Promise<PartUrl[]> => {
    const res = await stack.http.post(`/api/cloud/uploads/${id}/part-urls`).set(owner.auth).send({ partNumbers });
    expect(res.status).toBe(200);
    return res.body.parts;
  };
  /** PUTs one part as a client does (raw bytes); its status and ETag. */
  const putPart = async (url: string, bytes: Buffer) => {
    const res = await fetch(url, { method: 'PUT', body: bytes });
    const text = await res.text();
    return { status: res.status, etag: res.headers.get('etag'), text };
  };
  const slice = (bytes: Buffer, n: number, partSize: number) => bytes.subarray((n - 1) * partSize, n * partSize);
  const complete = (id: string, body: Record<string, unknown> = {}) =>
    stack.http.post(`/api/cloud/uploads/${id}/complete`).set(owner.auth).send(body);
  const state = (id: string) => stack.http.get(`/api/cloud/uploads/${id}`).set(owner.auth);
  const row = (id: string) =>
    stack.services.orm.em.fork().findOne(CloudUpload, { id }, { filters: false, refresh: true });

  it('takes the parts in any order, in parallel, and completes into the file, quota settled', async () => {
    expect(stack.services.storage.driver).toBe(driver);
    const before = await quota();
    const bytes = randomBytes(3 * PART + 1234);
    const started = await start({ name: 'film été.mp4', size: bytes.length, contentType: 'video/mp4' });
    expect(started).toMatchObject({ partSize: PART, partCount: 4 });
    expect(new Date(started.expiresAt).getTime()).toBeGreaterThan(Date.now() + 3600_000);
    expect(await quota()).toMatchObject({
      usedBytes: before.usedBytes,
      reservedBytes: before.reservedBytes + bytes.length,
    });

    const urls = await partUrls(started.uploadId, [4, 3, 2, 1]);
    expect(urls.map((u) => [u.partNumber, u.size, u.method])).toEqual([
      [1, PART, 'PUT'],
      [2, PART, 'PUT'],
      [3, PART, 'PUT'],
      [4, 1234, 'PUT'],
    ]);
    // In parallel, the last part first.
    const puts = await Promise.all(
      [...urls]
        .reverse()
        .map(async (u) => ({ n: u.partNumber, ...(await putPart(u.url, slice(bytes, u.partNumber, PART))) })),
    );
    for (const p of puts) expect(p.status).toBeLessThan(300);
    expect(puts.every((p) => p.etag)).toBe(true);

    const listed = await state(started.uploadId);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({
      uploadId: started.uploadId,
      name: 'film été.mp4',
      size: bytes.length,
      partCount: 4,
      missingParts: [],
      uploadedBytes: bytes.length,
    });
    expect(listed.body.parts.map((p: { partNumber: number; size: number }) => [p.partNumber, p.size])).toEqual([
      [1, PART],
      [2, PART],
      [3, PART],
      [4, 1234],
    ]);
    for (const p of puts) expect(listed.body.parts[p.n - 1].etag).toBe(p.etag!.replace(/"/g, ''));

    const done = await complete(started.uploadId);
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({
      id: started.uploadId,
      type: 'file',
      name: 'film été.mp4',
      size: bytes.length,
      contentType: 'video/mp4',
      category: 'video',
      parentId: null,
    });
    const got = await download(stack, owner, started.uploadId);
    expect(got.status).toBe(200);
    expect(sha(got.bytes)).toBe(sha(bytes));
    expect(await quota()).toMatchObject({
      usedBytes: before.usedBytes + bytes.length,
      reservedBytes: before.reservedBytes,
    });
    // Completing again answers the file and changes nothing; the upload is no longer pending.
    const again = await complete(started.uploadId);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(started.uploadId);
    expect((await quota()).usedBytes).toBe(before.usedBytes + bytes.length);
    expectProblem(await state(started.uploadId), 404, 'not_found');
    // A part address is spent once the upload completed (local: 409; S3: NoSuchUpload).
    expect((await putPart(urls[0].url, slice(bytes, 1, PART))).status).toBe(driver === 'local' ? 409 : 404);
    expect(sha((await download(stack, owner, started.uploadId)).bytes)).toBe(sha(bytes));
  });

  it('resumes after a disconnect: lists what is there, refuses missing parts, completes with the part list', async () => {
    const bytes = randomBytes(2 * PART + 10);
    const started = await start({ name: 'resume.bin', size: bytes.length, contentType: 'application/octet-stream' });
    const urls = await partUrls(started.uploadId, [1, 2, 3]);
    const p1 = await putPart(urls[0].url, slice(bytes, 1, PART));
    const p3 = await putPart(urls[2].url, slice(bytes, 3, PART));
    expect([p1.status, p3.status].every((s) => s < 300)).toBe(true);

    const listed = (await state(started.uploadId)).body;
    expect(listed).toMatchObject({ missingParts: [2], uploadedBytes: PART + 10 });
    const missing = await complete(started.uploadId);
    expectProblem(missing, 409, 'parts_missing');
    expect(missing.body.detail).toContain('2');
    // Still pending: the missing part, then the completion naming every part by the ETag its PUT answered.
    const [again] = await partUrls(started.uploadId, [2]);
    const p2 = await putPart(again.url, slice(bytes, 2, PART));
    const parts = [p1, p2, p3].map((p, i) => ({ partNumber: i + 1, etag: p.etag! }));
    const done = await complete(started.uploadId, { parts });
    expect(done.status).toBe(201);
    expect(sha((await download(stack, owner, started.uploadId)).bytes)).toBe(sha(bytes));
  });

  it('refuses bad part numbers, parts of the wrong size and stale ETags, keeping the upload', async () => {
    const bytes = randomBytes(PART + 100);
    const started = await start({ name: 'sizes.bin', size: bytes.length, contentType: 'application/octet-stream' });
    const bad = await stack.http
      .post(`/api/cloud/uploads/${started.uploadId}/part-urls`)
      .set(owner.auth)
      .send({ partNumbers: [3] });
    expectProblem(bad, 400, 'part_number_invalid');
    expectProblem(
      await stack.http
        .post(`/api/cloud/uploads/${started.uploadId}/part-urls`)
        .set(owner.auth)
        .send({ partNumbers: [0] }),
      400,
      'validation_failed',
    );
    const [u1, u2] = await partUrls(started.uploadId, [1, 2]);
    // A part longer than its size: the local address refuses it (413); S3 takes it and the completion refuses it.
    const long = await putPart(u2.url, Buffer.concat([slice(bytes, 2, PART), Buffer.alloc(5)]));
    if (driver === 'local') expect(long.status).toBe(413);
    const first = await putPart(u1.url, randomBytes(PART));
    expect(first.status).toBeLessThan(300);
    const short = await putPart(u2.url, bytes.subarray(PART, PART + 50));
    expect(short.status).toBeLessThan(300);
    const wrong = await complete(started.uploadId);
    expectProblem(wrong, 409, 'part_size_mismatch');
    expect(wrong.body.detail).toContain('part 2 has 50 bytes, 100 expected');
    // A part PUT again replaces the earlier one; naming the earlier ETag is refused.
    const p1 = await putPart(u1.url, slice(bytes, 1, PART));
    const p2 = await putPart(u2.url, slice(bytes, 2, PART));
    expectProblem(
      await complete(started.uploadId, {
        parts: [
          { partNumber: 1, etag: first.etag },
          { partNumber: 2, etag: p2.etag },
        ],
      }),
      409,
      'part_mismatch',
    );
    expectProblem(
      await complete(started.uploadId, {
        parts: [
          { partNumber: 2, etag: p2.etag },
          { partNumber: 1, etag: p1.etag },
        ],
      }),
      400,
      'validation_failed',
    );
    expect((await complete(started.uploadId)).status).toBe(201);
    expect(sha((await download(stack, owner, started.uploadId)).bytes)).toBe(sha(bytes));
  });

  it('aborts: parts deleted, reservation released, the upload gone', async () => {
    const before = await quota();
    const started = await start({ name: 'abort.bin', size: PART + 1, contentType: 'application/octet-stream' });
    const [u1] = await partUrls(started.uploadId, [1]);
    expect((await putPart(u1.url, randomBytes(PART))).status).toBeLessThan(300);
    const upload = (await row(started.uploadId))!;
    expect(await stack.services.storage.listParts(upload.objectKey, upload.multipartId!)).toHaveLength(1);

    expect((await stack.http.delete(`/api/cloud/uploads/${started.uploadId}`).set(owner.auth)).status).toBe(204);
    expect(await stack.services.storage.listParts(upload.objectKey, upload.multipartId!)).toBeNull();
    expect(await row(started.uploadId)).toBeNull();
    expect(await quota()).toMatchObject({ usedBytes: before.usedBytes, reservedBytes: before.reservedBytes });
    expectProblem(await state(started.uploadId), 404, 'not_found');
    expectProblem(await complete(started.uploadId), 404, 'not_found');
    expectProblem(await stack.http.delete(`/api/cloud/uploads/${started.uploadId}`).set(owner.auth), 404, 'not_found');
    expect((await putPart(u1.url, randomBytes(PART))).status).toBe(driver === 'local' ? 409 : 404);
  });

  it('aborts abandoned uploads past their expiry in the sweep and frees their reservation', async () => {
    const before = await quota();
    const started = await start({ name: 'abandoned.bin', size: 2 * PART, contentType: 'application/octet-stream' });
    const [u1] = await partUrls(started.uploadId, [1]);
    expect((await putPart(u1.url, randomBytes(PART))).status).toBeLessThan(300);
    const upload = (await row(started.uploadId))!;
    await stack.services.orm.em
      .fork()
      .nativeUpdate(
        CloudUpload,
        { id: started.uploadId },
        { expiresAt: new Date(Date.now() - 1000) },
        { filters: false },
      );
    expectProblem(
      await stack.http
        .post(`/api/cloud/uploads/${started.uploadId}/part-urls`)
        .set(owner.auth)
        .send({ partNumbers: [2] }),
      410,
      'upload_expired',
    );
    expectProblem(await complete(started.uploadId), 410, 'upload_expired');
    expect((await sweepCloud(stack.services)).uploads).toBeGreaterThanOrEqual(1);
    expect(await stack.services.storage.listParts(upload.objectKey, upload.multipartId!)).toBeNull();
    expect(await row(started.uploadId)).toBeNull();
    expect(await quota()).toMatchObject({ usedBytes: before.usedBytes, reservedBytes: before.reservedBytes });
  });

  it("lists the caller's own pending uploads, newest first: not completed, aborted, expired or single-PUT ones", async () => {
    const list = async (who: Account = owner) => {
      const res = await stack.http.get('/api/cloud/uploads').set(who.auth);
      expect(res.status).toBe(200);
      return (res.body.items as { uploadId: string; name: string }[]).map((u) => u.name);
    };
    const before = await list();
    const older = await start({ name: 'pending-older.bin', size: PART + 1, contentType: 'application/octet-stream' });
    const newer = await start({ name: 'pending-newer.bin', size: 2, contentType: 'application/octet-stream' });
    const done = await start({ name: 'pending-done.bin', size: 3, contentType: 'application/octet-stream' });
    const [u] = await partUrls(done.uploadId, [1]);
    expect((await putPart(u.url, randomBytes(3))).status).toBeLessThan(300);
    expect((await complete(done.uploadId)).status).toBe(201);
    const aborted = await start({ name: 'pending-aborted.bin', size: 4, contentType: 'application/octet-stream' });
    expect((await stack.http.delete(`/api/cloud/uploads/${aborted.uploadId}`).set(owner.auth)).status).toBe(204);
    const expired = await start({ name: 'pending-expired.bin', size: 5, contentType: 'application/octet-stream' });
    await stack.services.orm.em
      .fork()
      .nativeUpdate(
        CloudUpload,
        { id: expired.uploadId },
        { expiresAt: new Date(Date.now() - 1000) },
        { filters: false },
      );
    const single = await stack.http
      .post('/api/cloud/files/upload-url')
      .set(owner.auth)
      .send({ name: 'pending-single.bin', size: 6, contentType: 'application/octet-stream' });
    expect(single.status).toBe(201);

    const names = (await list()).filter((n) => !before.includes(n));
    expect(names).toEqual(['pending-newer.bin', 'pending-older.bin']);
    const item = (await stack.http.get('/api/cloud/uploads').set(owner.auth)).body.items[0];
    expect(item).toMatchObject({ uploadId: newer.uploadId, size: 2, partSize: PART, folderId: null });
    expect(older.uploadId).not.toBe(newer.uploadId);

    // Another member of the organisation resumes their own uploads only; another organisation sees none.
    const colleague = await addMember(stack, owner);
    expect(await list(colleague)).toEqual([]);
    expect(await list(await createAccount(stack))).toEqual([]);
  });

  it("is not confirmed through upload-confirm, and is not another organisation's to read", async () => {
    const started = await start({ name: 'mine.bin', size: 10, contentType: 'application/octet-stream' });
    expectProblem(
      await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: started.uploadId }),
      409,
      'upload_resumable',
    );
    const other = await createAccount(stack);
    expectProblem(await stack.http.get(`/api/cloud/uploads/${started.uploadId}`).set(other.auth), 404, 'not_found');
    expectProblem(await stack.http.delete(`/api/cloud/uploads/${started.uploadId}`).set(other.auth), 404, 'not_found');
    expect((await state(started.uploadId)).status).toBe(200);
  });
});

describe('resumable upload quota', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('reserves files beyond 5 GiB at the start, grows their parts, refuses past the quota and the bound', async () => {
    const owner = await createAccount(stack, { tier: 'business' });
    await setTierQuota(stack, 'business', 100 * 1024 ** 3, [owner.tenantId]);
    const size = 90 * 1024 ** 3;
    const res = await stack.http
      .post('/api/cloud/uploads')
      .set(owner.auth)
      .send({ name: 'disk.iso', size, contentType: 'application/octet-stream' });
    expect(res.status).toBe(201);
    // 8 MiB parts by default would be 11,520: 10 MiB parts, 9,216 of them.
    expect(res.body).toMatchObject({ partSize: 10 * 1024 ** 2, partCount: 9216 });
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body).toMatchObject({ reservedBytes: size });
    const over = await stack.http
      .post('/api/cloud/uploads')
      .set(owner.auth)
      .send({ name: 'second.iso', size: 10 * 1024 ** 3 + 1, contentType: 'application/octet-stream' });
    expectProblem(over, 409, 'quota_exceeded');
    expectProblem(
      await stack.http
        .post('/api/cloud/uploads')
        .set(owner.auth)
        .send({ name: 'huge.iso', size: 6 * 1024 ** 4, contentType: 'application/octet-stream' }),
      413,
      'file_too_large',
    );
    expect((await stack.http.delete(`/api/cloud/uploads/${res.body.uploadId}`).set(owner.auth)).status).toBe(204);
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body).toMatchObject({ reservedBytes: 0 });
  });
});
