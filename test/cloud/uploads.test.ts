import { createHash, randomBytes } from 'node:crypto';
import { CloudNode } from '../../entities/cloud/node';
import { CloudUpload } from '../../entities/cloud/upload';
import { sweepCloud } from '../../domain/cloud/sweepCloud';
import { download, putBytes, setTierQuota, uploadFile, uploadUrl } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { s3Env, startS3, type S3Server } from '../support/s3';
import { startStack, type TestStack } from '../support/stack';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(['local', 's3'] as const)('cloud upload in three steps (%s storage)', (driver) => {
  let s3: S3Server | null = null;
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3();
    stack = await startStack({ workers: false, env: s3Env(s3, 'cloud-test') });
    await stack.services.storage.ensureBucket();
    owner = await createAccount(stack);
  });
  afterAll(async () => {
    await stack?.close();
    await s3?.close();
  });

  it('stores the bytes straight in the store and downloads them back identical', async () => {
    expect(stack.services.storage.driver).toBe(driver);
    const bytes = randomBytes(300_000);
    const ticket = await uploadUrl(stack, owner, {
      name: 'photo été.png',
      size: bytes.length,
      contentType: 'image/png',
    });
    expect(ticket).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/png' } });
    // The key is the server's: the tenant's prefix and the upload id, nothing of the name.
    const row = await stack.services.orm.em
      .fork()
      .findOneOrFail(CloudUpload, { id: ticket.uploadId }, { filters: false });
    expect(row.objectKey).toBe(`${owner.tenantId}/files/${ticket.uploadId}`);
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body).toMatchObject({
      usedBytes: 0,
      reservedBytes: bytes.length,
    });

    expect(await putBytes(ticket, bytes)).toBeLessThan(300);
    const confirmed = await stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: ticket.uploadId });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body).toMatchObject({
      id: ticket.uploadId,
      type: 'file',
      name: 'photo été.png',
      size: bytes.length,
      contentType: 'image/png',
      category: 'image',
      parentId: null,
      starred: false,
      trashedAt: null,
    });

    const got = await download(stack, owner, ticket.uploadId);
    expect(got.status).toBe(200);
    expect(sha(got.bytes)).toBe(sha(bytes));
    expect(got.disposition).toContain("filename*=UTF-8''photo%20%C3%A9t%C3%A9.png");
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body).toMatchObject({
      usedBytes: bytes.length,
      reservedBytes: 0,
      byType: { image: bytes.length },
    });

    // Confirming again answers the file, changes nothing.
    const again = await stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: ticket.uploadId });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(ticket.uploadId);
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body.usedBytes).toBe(bytes.length);
  });

  it('refuses to confirm before the PUT, and keeps the reservation for a retry', async () => {
    const ticket = await uploadUrl(stack, owner, { name: 'later.txt', size: 5, contentType: 'text/plain' });
    expectProblem(
      await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: ticket.uploadId }),
      409,
      'upload_incomplete',
    );
    await putBytes(ticket, 'hello');
    expect(
      (await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: ticket.uploadId }))
        .status,
    ).toBe(201);
  });

  it('refuses an object differing from the declaration, deletes it and releases the reservation', async () => {
    const before = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body;
    const ticket = await uploadUrl(stack, owner, { name: 'short.txt', size: 3, contentType: 'text/plain' });
    // The local address refuses more bytes than declared (fewer pass); s3 presigned PUTs take any body: confirm checks.
    expect(await putBytes(ticket, driver === 'local' ? 'ab' : 'much longer than declared')).toBeLessThan(300);
    const res = await stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: ticket.uploadId });
    expectProblem(res, 409, 'upload_mismatch');
    expect(res.body.detail).toContain('bytes');
    const key = `${owner.tenantId}/files/${ticket.uploadId}`;
    expect(await stack.services.storage.stat(key)).toBeNull();
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body).toMatchObject({
      usedBytes: before.usedBytes,
      reservedBytes: before.reservedBytes,
    });
    expectProblem(
      await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: ticket.uploadId }),
      404,
      'not_found',
    );
    if (driver === 'local') {
      // The discarded upload's address stores nothing more: no object without its upload.
      expect(await putBytes(ticket, 'abc')).toBe(409);
      expect(await stack.services.storage.stat(key)).toBeNull();
    }
  });

  it('keeps the confirmed file and the quota whatever is PUT to its address afterwards', async () => {
    const before = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body.usedBytes;
    const ticket = await uploadUrl(stack, owner, { name: 'five.txt', size: 5, contentType: 'text/plain' });
    expect(await putBytes(ticket, 'hello')).toBeLessThan(300);
    expect(
      (await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: ticket.uploadId }))
        .status,
    ).toBe(201);
    const late = await putBytes(ticket, Buffer.alloc(3_000_000, 1));
    // Local: the address is spent. S3 takes the PUT (its presigned PUT bounds nothing), at a key the file no longer reads.
    if (driver === 'local') expect(late).toBe(409);
    expect((await download(stack, owner, ticket.uploadId)).bytes.toString()).toBe('hello');
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body.usedBytes).toBe(before + 5);
    const file = await stack.services.orm.em
      .fork()
      .findOneOrFail(CloudNode, { id: ticket.uploadId }, { filters: false });
    expect(await stack.services.storage.stat(file.objectKey!)).toMatchObject({ size: 5 });
  });

  if (driver === 'local') {
    it('holds a local upload address to one object of at most the declared bytes', async () => {
      const ticket = await uploadUrl(stack, owner, { name: 'bounded.txt', size: 5, contentType: 'text/plain' });
      const key = `${owner.tenantId}/files/${ticket.uploadId}`;
      const put = async (body: string) => {
        const res = await fetch(ticket.url, { method: 'PUT', body, headers: ticket.headers });
        return { status: res.status, code: ((await res.json().catch(() => ({}))) as { code?: string }).code };
      };
      expect(await put('x'.repeat(6))).toEqual({ status: 413, code: 'payload_too_large' });
      expect(await stack.services.storage.stat(key)).toBeNull();
      expect(await put('hello')).toEqual({ status: 204, code: undefined });
      expect(await put('world')).toEqual({ status: 409, code: 'object_exists' });
      expect(
        (await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: ticket.uploadId }))
          .status,
      ).toBe(201);
      expect((await download(stack, owner, ticket.uploadId)).bytes.toString()).toBe('hello');
      expect(await put('again')).toEqual({ status: 409, code: 'upload_not_pending' });
    });
  }

  if (driver === 's3') {
    it('refuses an object stored with another Content-Type than declared', async () => {
      const ticket = await uploadUrl(stack, owner, { name: 'x.png', size: 4, contentType: 'image/png' });
      await putBytes(ticket, 'abcd', { 'Content-Type': 'text/html' });
      const res = await stack.http
        .post('/api/cloud/files/upload-confirm')
        .set(owner.auth)
        .send({ uploadId: ticket.uploadId });
      expectProblem(res, 409, 'upload_mismatch');
      expect(res.body.detail).toContain('text/html');
    });
  }

  it('releases stale reservations and deletes their stray objects (sweep)', async () => {
    const ticket = await uploadUrl(stack, owner, { name: 'abandoned.txt', size: 4, contentType: 'text/plain' });
    await putBytes(ticket, 'lost');
    const key = `${owner.tenantId}/files/${ticket.uploadId}`;
    expect(await stack.services.storage.stat(key)).not.toBeNull();
    const reserved = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body.reservedBytes;
    await stack.services.orm.em
      .fork()
      .nativeUpdate(
        CloudUpload,
        { id: ticket.uploadId },
        { expiresAt: new Date(Date.now() - 1000) },
        { filters: false },
      );
    expectProblem(
      await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: ticket.uploadId }),
      410,
      'upload_expired',
    );
    expect((await sweepCloud(stack.services)).uploads).toBeGreaterThanOrEqual(1);
    expect(await stack.services.storage.stat(key)).toBeNull();
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body.reservedBytes).toBe(reserved - 4);
  });
});

describe('cloud quota', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('refuses an upload past the quota (409 quota_exceeded)', async () => {
    const owner = await createAccount(stack, { tier: 'starter' });
    await setTierQuota(stack, 'starter', 1000, [owner.tenantId]);
    await uploadFile(stack, owner, 'a.txt', 'x'.repeat(600));
    const res = await stack.http
      .post('/api/cloud/files/upload-url')
      .set(owner.auth)
      .send({ name: 'b.txt', size: 401, contentType: 'text/plain' });
    expectProblem(res, 409, 'quota_exceeded');
    expect(res.body.detail).toContain('400');
    expect(
      (
        await stack.http
          .post('/api/cloud/files/upload-url')
          .set(owner.auth)
          .send({ name: 'b.txt', size: 400, contentType: 'text/plain' })
      ).status,
    ).toBe(201);
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body).toMatchObject({
      quotaBytes: 1000,
      usedBytes: 600,
      reservedBytes: 400,
      availableBytes: 0,
      overQuota: false,
    });
  });

  it('lets exactly as many of 20 concurrent uploads through as the last bytes allow', async () => {
    const owner = await createAccount(stack, { tier: 'pro' });
    await setTierQuota(stack, 'pro', 10_000, [owner.tenantId]);
    await uploadFile(stack, owner, 'base.bin', Buffer.alloc(9_000), { contentType: 'application/octet-stream' });
    // 1,000 bytes left; 20 uploads of 150 bytes race for them: 6 fit.
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.http
          .post('/api/cloud/files/upload-url')
          .set(owner.auth)
          .send({ name: `race-${i}.bin`, size: 150, contentType: 'application/octet-stream' }),
      ),
    );
    const won = attempts.filter((r) => r.status === 201);
    expect(won).toHaveLength(6);
    for (const lost of attempts.filter((r) => r.status !== 201)) expectProblem(lost, 409, 'quota_exceeded');
    await Promise.all(
      won.map(async (r) => {
        await putBytes(r.body, Buffer.alloc(150));
        expect(
          (await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: r.body.uploadId }))
            .status,
        ).toBe(201);
      }),
    );
    const quota = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body;
    expect(quota).toMatchObject({ usedBytes: 9_900, reservedBytes: 0, availableBytes: 100 });
    expect(quota.usedBytes).toBeLessThanOrEqual(quota.quotaBytes);
  });

  it('blocks new uploads after a downgrade below current use, and deletes nothing', async () => {
    const owner = await createAccount(stack, { tier: 'business' });
    const file = await uploadFile(stack, owner, 'keep.txt', 'k'.repeat(500));
    await setTierQuota(stack, 'business', 100, [owner.tenantId]);
    const quota = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body;
    expect(quota).toMatchObject({ quotaBytes: 100, usedBytes: 500, availableBytes: 0, overQuota: true });
    expectProblem(
      await stack.http
        .post('/api/cloud/files/upload-url')
        .set(owner.auth)
        .send({ name: 'more.txt', size: 1, contentType: 'text/plain' }),
      409,
      'quota_exceeded',
    );
    expect((await download(stack, owner, file.id)).bytes.toString()).toBe('k'.repeat(500));
  });

  it('refuses a file larger than CLOUD_MAX_UPLOAD_BYTES (413)', async () => {
    const owner = await createAccount(stack);
    expectProblem(
      await stack.http
        .post('/api/cloud/files/upload-url')
        .set(owner.auth)
        .send({ name: 'huge.iso', size: 6 * 1024 ** 3, contentType: 'application/octet-stream' }),
      413,
      'file_too_large',
    );
  });
});
