import { createHash } from 'node:crypto';
import { pruneVersions } from '../../domain/cloud/pruneVersions';
import { CloudFileVersion } from '../../entities/cloud/version';
import { createAppPassword } from '../support/appPasswords';
import { putBytes, uploadFile } from '../support/cloud';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { s3Env, startS3, type S3Server } from '../support/s3';
import { startStack, type TestStack } from '../support/stack';

const sha = (b: string) => createHash('sha256').update(b).digest('hex');

/** Versions on S3 storage (s3rver): one stack for the file; the local adapter's objects are the WebDAV suite's. */
describe('cloud file versions', () => {
  let s3: S3Server;
  let stack: TestStack;
  let owner: Account;
  let stranger: Account;
  let basic: string;
  beforeAll(async () => {
    s3 = await startS3();
    stack = await startStack({
      workers: false,
      env: {
        ...s3Env(s3, 'versions'),
        CLOUD_VERSIONS_MAX_PER_FILE: '3',
      },
    });
    await stack.services.storage.ensureBucket();
    [owner, stranger] = await Promise.all([createAccount(stack), createAccount(stack)]);
    const app = await createAppPassword(stack, owner, ['webdav']);
    basic = `Basic ${Buffer.from(`${app.login}:${app.password}`).toString('base64')}`;
  });
  afterAll(async () => {
    await stack?.close();
    await s3?.close();
  });

  const quota = async () => (await stack.http.get('/api/cloud/quota').set(owner.auth)).body as { usedBytes: number };
  const versions = async (fileId: string, who = owner) => {
    const res = await stack.http.get(`/api/cloud/files/${fileId}/versions`).set(who.auth);
    expect(res.status).toBe(200);
    return res.body.items as { id: string; size: number; authorId: string | null; contentHash: string | null }[];
  };
  /** The three steps of an overwrite through the API. */
  const overwrite = async (fileId: string, bytes: string) => {
    const ticket = await stack.http
      .post(`/api/cloud/files/${fileId}/upload-url`)
      .set(owner.auth)
      .send({ size: Buffer.byteLength(bytes), contentType: 'text/plain' });
    expect(ticket.status).toBe(201);
    expect(await putBytes(ticket.body, bytes)).toBeLessThan(300);
    const uploadId = ticket.body.uploadId as string;
    const res = await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId });
    return { status: res.status, body: res.body as Record<string, unknown>, uploadId };
  };
  const content = (fileId: string, versionId: string, headers: Record<string, string> = {}) =>
    stack.http
      .get(`/api/cloud/files/${fileId}/versions/${versionId}/content`)
      .set(owner.auth)
      .set(headers)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  /** The current content of notes.txt, read over WebDAV. */
  const current = async () =>
    (await fetch(`${stack.url}/dav/files/notes.txt`, { headers: { Authorization: basic } })).text();

  it('keeps overwrites (API and WebDAV) as versions, lists, downloads with ranges, restores and deletes them', async () => {
    const file = await uploadFile(stack, owner, 'notes.txt', 'first');
    expect(await versions(file.id)).toEqual([]);

    // An overwrite through the API: same file, the previous content a version, both counted.
    const replaced = await overwrite(file.id, 'second!');
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: file.id, name: 'notes.txt', size: 7 });
    // Confirming again answers the file again, changing nothing.
    const again = await stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: replaced.uploadId });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: file.id, size: 7 });
    let list = await versions(file.id);
    expect(list).toEqual([
      expect.objectContaining({ size: 5, authorId: owner.user.id, contentType: 'text/plain', contentHash: null }),
    ]);
    expect((await quota()).usedBytes).toBe(5 + 7);

    // A WebDAV overwrite: its bytes pass the server, so the content it stored has a hash once it is a version.
    const put = await fetch(`${stack.url}/dav/files/notes.txt`, {
      method: 'PUT',
      headers: { Authorization: basic, 'Content-Type': 'text/plain' },
      body: 'third.',
    });
    expect(put.status).toBe(204);
    expect((await overwrite(file.id, 'fourth content')).status).toBe(200);
    list = await versions(file.id);
    expect(list.map((v) => [v.size, v.contentHash])).toEqual([
      [6, sha('third.')],
      [7, null],
      [5, null],
    ]);
    expect((await quota()).usedBytes).toBe(5 + 7 + 6 + 14);
    const first = list[2];

    // The bytes of a version, whole or one range.
    const whole = await content(file.id, first.id);
    expect(whole.status).toBe(200);
    expect(whole.body.toString()).toBe('first');
    expect(whole.headers['content-disposition']).toContain('notes.txt');
    const part = await content(file.id, first.id, { Range: 'bytes=1-3' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 1-3/5');
    expect(part.body.toString()).toBe('irs');
    const past = await stack.http
      .get(`/api/cloud/files/${file.id}/versions/${first.id}/content`)
      .set(owner.auth)
      .set('Range', 'bytes=9-');
    expectProblem(past, 416, 'range_not_satisfiable');
    expect(past.headers['content-range']).toBe('bytes */5');

    // Restoring: the chosen content is current, the current one a version; the quota does not move.
    const restored = await stack.http.post(`/api/cloud/files/${file.id}/versions/${first.id}/restore`).set(owner.auth);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: file.id, size: 5 });
    expect(await current()).toBe('first');
    list = await versions(file.id);
    expect(list.map((v) => v.size)).toEqual([14, 6, 7]);
    expect((await quota()).usedBytes).toBe(5 + 7 + 6 + 14);
    expectProblem(
      await stack.http.post(`/api/cloud/files/${file.id}/versions/${first.id}/restore`).set(owner.auth),
      404,
      'not_found',
    );

    // Deleting a version frees its bytes and its object.
    const doomed = await stack.services.orm.em
      .fork()
      .findOneOrFail(CloudFileVersion, { id: list[0].id }, { filters: false });
    const del = await stack.http.delete(`/api/cloud/files/${file.id}/versions/${list[0].id}`).set(owner.auth);
    expect(del.status).toBe(204);
    expect(await stack.services.storage.stat(doomed.objectKey)).toBeNull();
    expect((await quota()).usedBytes).toBe(5 + 7 + 6);
    expect((await versions(file.id)).map((v) => v.size)).toEqual([6, 7]);
    expectProblem(
      await stack.http.delete(`/api/cloud/files/${file.id}/versions/${list[0].id}`).set(owner.auth),
      404,
      'not_found',
    );
  });

  it("answers 404 for another organisation's file or version, and for a trashed file", async () => {
    const file = await uploadFile(stack, owner, 'private.txt', 'v1');
    expect((await overwrite(file.id, 'v2')).status).toBe(200);
    const [version] = await versions(file.id);
    const paths: [string, string][] = [
      ['get', `/api/cloud/files/${file.id}/versions`],
      ['get', `/api/cloud/files/${file.id}/versions/${version.id}/content`],
      ['post', `/api/cloud/files/${file.id}/versions/${version.id}/restore`],
      ['delete', `/api/cloud/files/${file.id}/versions/${version.id}`],
    ];
    for (const [method, path] of paths) {
      const res = await (
        method === 'get' ? stack.http.get(path) : method === 'post' ? stack.http.post(path) : stack.http.delete(path)
      ).set(stranger.auth);
      expectProblem(res, 404, 'not_found');
    }
    const theirs = await stack.http
      .post(`/api/cloud/files/${file.id}/upload-url`)
      .set(stranger.auth)
      .send({ size: 2, contentType: 'text/plain' });
    expectProblem(theirs, 404, 'not_found');
    // A version id of another file of the same organisation is not this file's.
    const other = await uploadFile(stack, owner, 'other.txt', 'x');
    expectProblem(
      await stack.http.get(`/api/cloud/files/${other.id}/versions/${version.id}/content`).set(owner.auth),
      404,
      'not_found',
    );
    expect(await versions(file.id)).toHaveLength(1);

    // Trashed between the overwrite's start and its confirmation: 404, the reservation given back.
    const ticket = await stack.http
      .post(`/api/cloud/files/${file.id}/upload-url`)
      .set(owner.auth)
      .send({ size: 3, contentType: 'text/plain' });
    expect(await putBytes(ticket.body, 'v3!')).toBeLessThan(300);
    expect((await stack.http.delete(`/api/cloud/files/${file.id}`).set(owner.auth)).status).toBe(204);
    expectProblem(
      await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: ticket.body.uploadId }),
      404,
      'not_found',
    );
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body.reservedBytes).toBe(0);
    expectProblem(await stack.http.get(`/api/cloud/files/${file.id}/versions`).set(owner.auth), 404, 'not_found');
  });

  it('thins versions by age and caps them per file, deleting their objects and freeing their bytes', async () => {
    const file = await uploadFile(stack, owner, 'log.txt', 'v0');
    for (const bytes of ['v1', 'v2', 'v3', 'v4', 'v5']) expect((await overwrite(file.id, bytes)).status).toBe(200);
    const em = stack.services.orm.em.fork();
    const rows = await em.find(
      CloudFileVersion,
      { fileId: file.id },
      { filters: false, orderBy: { createdAt: 'desc' } },
    );
    expect(rows).toHaveLength(5);
    const now = new Date();
    const minutes = (n: number) => n * 60_000;
    // An hour of the first day (between 2 and 4 hours ago): two versions share it.
    const hour = Math.floor((now.getTime() - minutes(180)) / minutes(60)) * minutes(60);
    // Newest first: two in the last hour, two in that clock hour, one 40 days ago.
    const times = [
      now.getTime() - minutes(5),
      now.getTime() - minutes(20),
      hour + minutes(40),
      hour + minutes(10),
      now.getTime() - minutes(40 * 24 * 60),
    ];
    for (const [i, row] of rows.entries())
      await em.nativeUpdate(CloudFileVersion, { id: row.id }, { contentAt: new Date(times[i]) }, { filters: false });
    const before = (await quota()).usedBytes;

    // That hour keeps its newest; then the cap (3) keeps the three newest of what is left.
    expect(await pruneVersions(stack.services, 1, now)).toBe(2);
    const kept = (await versions(file.id)).map((v) => v.id);
    expect(kept).toEqual([rows[0].id, rows[1].id, rows[2].id]);
    for (const gone of [rows[3], rows[4]]) expect(await stack.services.storage.stat(gone.objectKey)).toBeNull();
    for (const stays of [rows[0], rows[1], rows[2]])
      expect(await stack.services.storage.stat(stays.objectKey)).not.toBeNull();
    expect((await quota()).usedBytes).toBe(before - 4);
    // Again: nothing more.
    expect(await pruneVersions(stack.services, 1, now)).toBe(0);
  });

  it('lists what other members shared with the caller, with who shared it and when, page by page', async () => {
    const colleague = await addMember(stack, owner);
    const [a, b, c] = await Promise.all(
      ['shared-a.txt', 'shared-b.txt', 'shared-c.txt'].map((n) => uploadFile(stack, owner, n, n)),
    );
    const share = async (fileId: string) =>
      (
        await stack.http
          .post(`/api/cloud/files/${fileId}/share`)
          .set(owner.auth)
          .send({ kind: 'members', memberIds: [colleague.user.id] })
          .expect(201)
      ).body as { id: string };
    await share(a.id);
    await share(b.id);
    const revoked = await share(c.id);
    await stack.http.delete(`/api/cloud/files/${c.id}/shares/${revoked.id}`).set(owner.auth).expect(204);
    await share(a.id); // shared again: listed once, at its latest share

    const sharedWith = (who: Account, query = '') => stack.http.get(`/api/cloud/shared-with-me${query}`).set(who.auth);
    const first = await sharedWith(colleague, '?limit=1');
    expect(first.status).toBe(200);
    expect(first.body.items).toEqual([
      {
        item: expect.objectContaining({ id: a.id, name: 'shared-a.txt' }),
        sharedBy: owner.user.id,
        sharedAt: expect.any(String),
      },
    ]);
    const next = await sharedWith(colleague, `?limit=1&cursor=${first.body.nextCursor}`);
    expect(next.body.items.map((e: { item: { id: string } }) => e.item.id)).toEqual([b.id]);
    expect(next.body.nextCursor).toBeNull();
    // Not one's own shares; nothing of another organisation's; a cursor that is not one is a 400.
    expect((await sharedWith(owner)).body.items).toEqual([]);
    expect((await sharedWith(stranger)).body.items).toEqual([]);
    expectProblem(await sharedWith(colleague, '?cursor=bm9wZQ'), 400, 'validation_failed');
  });
});
