import { CloudShare } from '../../entities/cloud/share';
import { usageJobId } from '../../domain/cloud/recordUsage';
import { inlineToken } from '../../domain/cloud/tokens';
import { cloudQuotaQueue } from '../../queues/cloud';
import { mkdir, uploadFile, type Uploaded } from '../support/cloud';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

describe('cloud access: inline tokens, shares, tenants, internal usage, bad input', () => {
  let stack: TestStack;
  let owner: Account;
  let file: Uploaded;
  beforeAll(async () => {
    stack = await startStack({ workers: ['quota'] });
    owner = await createAccount(stack);
    file = await uploadFile(stack, owner, 'pixel.png', Buffer.from('89504e470d0a1a0a', 'hex'), {
      contentType: 'image/png',
    });
  });
  afterAll(() => stack.close());

  const inline = (id: string, t: string) => stack.http.get(`/api/cloud/files/${id}/inline?t=${encodeURIComponent(t)}`);

  it('renders a file inline with a signed token, and refuses a tampered or expired one (403)', async () => {
    const { inlineUrl } = (await stack.http.get(`/api/cloud/files/${file.id}/download-url`).set(owner.auth)).body;
    const t = new URL(inlineUrl).searchParams.get('t')!;
    const ok = await inline(file.id, t);
    expect(ok.status).toBe(302);
    const bytes = await fetch(ok.headers.location);
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer()).toString('hex')).toBe('89504e470d0a1a0a');
    expect(bytes.headers.get('content-disposition')).toBeNull();

    const [exp, sig] = t.split('.');
    const flipped = `${exp}.${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    expectProblem(await inline(file.id, flipped), 403, 'inline_token_invalid');
    expectProblem(await inline(file.id, `${Number(exp) + 3600}.${sig}`), 403, 'inline_token_invalid');
    expectProblem(await stack.http.get(`/api/cloud/files/${file.id}/inline`), 403, 'inline_token_invalid');
    const other = await uploadFile(stack, owner, 'other.png', 'x', { contentType: 'image/png' });
    expectProblem(await inline(other.id, t), 403, 'inline_token_invalid');
    expectProblem(await inline(file.id, inlineToken(stack.services, file.id, -5)), 403, 'inline_token_expired');
    // A token signed with another key (say, the storage signing key) is worthless.
    expectProblem(
      await inline(
        file.id,
        `${exp}.${Buffer.from(stack.services.deriveSecret('storage-signing')).toString('base64url').slice(0, 43)}`,
      ),
      403,
      'inline_token_invalid',
    );
  });

  it('shares a link with expiry and password, and revokes it', async () => {
    const res = await stack.http
      .post(`/api/cloud/files/${file.id}/share`)
      .set(owner.auth)
      .send({ kind: 'link', password: 'open sesame', expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'link', passwordProtected: true, fileId: file.id, revokedAt: null });
    const token = res.body.url.split('/').pop();
    const open = (body: object) => stack.http.post(`/api/cloud/shared/${token}`).send(body);

    expectProblem(await open({}), 401, 'share_password_required');
    expectProblem(await open({ password: 'wrong one!' }), 403, 'share_password_invalid');
    const opened = await open({ password: 'open sesame' });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ name: 'pixel.png', size: 8, contentType: 'image/png' });
    expect((await fetch(opened.body.url)).status).toBe(200);
    // Listed without its address (only a hash of the token is kept).
    const listed = await stack.http.get(`/api/cloud/files/${file.id}/shares`).set(owner.auth);
    expect(listed.body.items).toEqual([{ ...res.body, url: null }]);

    await stack.services.orm.em
      .fork()
      .nativeUpdate(CloudShare, { id: res.body.id }, { expiresAt: new Date(Date.now() - 1000) }, { filters: false });
    expectProblem(await open({ password: 'open sesame' }), 410, 'share_expired');

    const plain = await stack.http.post(`/api/cloud/files/${file.id}/share`).set(owner.auth).send({ kind: 'link' });
    const plainToken = plain.body.url.split('/').pop();
    expect((await stack.http.post(`/api/cloud/shared/${plainToken}`).send({})).status).toBe(200);
    expect(
      (await stack.http.delete(`/api/cloud/files/${file.id}/shares/${plain.body.id}`).set(owner.auth)).status,
    ).toBe(204);
    expectProblem(await stack.http.post(`/api/cloud/shared/${plainToken}`).send({}), 404, 'not_found');
    expectProblem(
      await stack.http
        .post(`/api/cloud/files/${file.id}/share`)
        .set(owner.auth)
        .send({ kind: 'link', expiresAt: '2001-01-01T00:00:00Z' }),
      400,
      'validation_failed',
    );
  });

  it('shares with members; link shares need cloud.share', async () => {
    const member = await addMember(stack, owner);
    const outsider = await createAccount(stack);
    const res = await stack.http
      .post(`/api/cloud/files/${file.id}/share`)
      .set(member.auth)
      .send({ kind: 'members', memberIds: [owner.user.id] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'members', url: null, memberIds: [owner.user.id] });
    expectFieldErrors(
      await stack.http
        .post(`/api/cloud/files/${file.id}/share`)
        .set(owner.auth)
        .send({ kind: 'members', memberIds: [outsider.user.id] }),
      'memberIds',
    );
    expectProblem(
      await stack.http.post(`/api/cloud/files/${file.id}/share`).set(member.auth).send({ kind: 'link' }),
      403,
      'permission_denied',
    );
  });

  it('answers 404 to another organisation for every file and folder operation', async () => {
    const other = await createAccount(stack);
    const dir = await mkdir(stack, owner, 'Private');
    const trashed = await uploadFile(stack, owner, 'gone.txt', 'g');
    await stack.http.delete(`/api/cloud/files/${trashed.id}`).set(owner.auth);
    const calls = [
      stack.http.get(`/api/cloud/folders/${dir.id}/contents`),
      stack.http.get(`/api/cloud/folders/${dir.id}/breadcrumb`),
      stack.http.get(`/api/cloud/files/${file.id}/download-url`),
      stack.http.get(`/api/cloud/files/${file.id}/tenant-download-url`),
      stack.http.post(`/api/cloud/files/${file.id}/share`).send({ kind: 'link' }),
      stack.http.get(`/api/cloud/files/${file.id}/shares`),
      stack.http.post(`/api/cloud/files/${file.id}/star`).send({ starred: true }),
      stack.http.post(`/api/cloud/folders/${dir.id}/star`).send({ starred: true }),
      stack.http.post(`/api/cloud/files/${trashed.id}/restore`).send(),
      stack.http.patch(`/api/cloud/files/${file.id}`).send({ name: 'mine.png' }),
      stack.http.post(`/api/cloud/files/${file.id}/move`).send({ folderId: null }),
      stack.http.delete(`/api/cloud/files/${file.id}`),
      stack.http.delete(`/api/cloud/folders/${dir.id}`),
      stack.http.post('/api/cloud/files/bulk-delete').send({ fileIds: [file.id] }),
      stack.http
        .post('/api/cloud/files/upload-url')
        .send({ name: 'x', size: 1, contentType: 'text/plain', folderId: dir.id }),
    ];
    for (const call of calls) expectProblem(await call.set(other.auth), 404, 'not_found');
    expect((await stack.http.get('/api/cloud/folders/contents').set(other.auth)).body.items).toEqual([]);
    expect((await stack.http.get('/api/cloud/folders/search?q=pixel').set(other.auth)).body.items).toEqual([]);
    expect((await stack.http.get('/api/cloud/folders/trash').set(other.auth)).body.items).toEqual([]);
    expect(
      (await stack.http.get(`/api/cloud/folders/contents`).set(owner.auth)).body.items.map(
        (i: { name: string }) => i.name,
      ),
    ).toContain('pixel.png');
  });

  it('counts usage reported by other modules once per event (internal route, fail-closed)', async () => {
    const body = { tenantId: owner.tenantId, eventId: 'doc-42:img-7', deltaBytes: 1234, source: 'documents' };
    expectProblem(await stack.http.post('/api/cloud/internal/usage').send(body), 403, 'internal_secret_invalid');
    expectProblem(
      await stack.http.post('/api/cloud/internal/usage').set('X-Internal-Secret', 'nope').send(body),
      403,
      'internal_secret_invalid',
    );
    const before = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body;
    for (let i = 0; i < 2; i++) {
      const res = await stack.http
        .post('/api/cloud/internal/usage')
        .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
        .send(body);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ eventId: 'doc-42:img-7', status: 'queued' });
    }
    await stack.http
      .post('/api/cloud/internal/usage')
      .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
      .send({ ...body, eventId: 'doc-42:img-8', deltaBytes: 66 });
    const after = await eventually(
      async () => {
        const q = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body;
        return q.usedBytes === before.usedBytes + 1300 ? q : null;
      },
      { what: 'usage applied' },
    );
    expect(after.byType.image).toBe((before.byType.image ?? 0) + 1300);
    // A replayed event after its job is gone (removed once completed) makes a new job, which applies nothing.
    const queue = stack.services.queues.get(cloudQuotaQueue);
    const jobId = usageJobId({ tenantId: owner.tenantId, eventId: 'doc-42:img-8' });
    const completed = async () => {
      const job = await queue.getJob(jobId);
      return job && (await job.isCompleted()) ? job : null;
    };
    await (await eventually(completed, { what: 'the first job completed' })).remove();
    await stack.http
      .post('/api/cloud/internal/usage')
      .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
      .send({ ...body, eventId: 'doc-42:img-8', deltaBytes: 66 })
      .expect(202);
    const replayed = await eventually(completed, { what: 'the replayed job completed' });
    expect(replayed.returnvalue).toBe(false);
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body.usedBytes).toBe(before.usedBytes + 1300);
    expectProblem(
      await stack.http
        .post('/api/cloud/internal/usage')
        .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
        .send({ ...body, tenantId: '01900000-0000-7000-8000-000000000000' }),
      404,
      'not_found',
    );

    const closed = await startStack({ workers: false, sharing: stack, env: { INTERNAL_SECRET: '' } });
    try {
      expectProblem(
        await closed.http.post('/api/cloud/internal/usage').set('X-Internal-Secret', '').send(body),
        403,
        'internal_routes_disabled',
      );
    } finally {
      await closed.close();
    }
  });

  it('refuses bad input on every route with field errors', async () => {
    const h = owner.auth;
    const cases: [Promise<import('supertest').Response>, ...string[]][] = [
      [
        stack.http
          .post('/api/cloud/files/upload-url')
          .set(h)
          .send({ name: '', size: -1, contentType: 'png', folderId: 'x', extra: 1 }),
        'name',
        'size',
        'contentType',
        'folderId',
        'extra',
      ],
      [
        stack.http.post('/api/cloud/files/upload-url').set(h).send({ name: 'a', size: 1.5, contentType: 'text/plain' }),
        'size',
      ],
      [stack.http.post('/api/cloud/files/upload-confirm').set(h).send({ uploadId: 'nope' }), 'uploadId'],
      [stack.http.get('/api/cloud/files/nope/download-url').set(h), 'id'],
      [stack.http.get('/api/cloud/files/nope/tenant-download-url').set(h), 'id'],
      [
        stack.http
          .patch(`/api/cloud/files/${file.id}`)
          .set(h)
          .send({ name: 'x'.repeat(256) }),
        'name',
      ],
      [stack.http.patch(`/api/cloud/files/${file.id}`).set(h).send({ name: null }), 'name'],
      [stack.http.post(`/api/cloud/files/${file.id}/move`).set(h).send({ folderId: 7 }), 'folderId'],
      [
        stack.http.post(`/api/cloud/files/${file.id}/share`).set(h).send({ kind: 'public', password: 'short' }),
        'kind',
        'password',
      ],
      [
        stack.http.post(`/api/cloud/files/${file.id}/share`).set(h).send({ kind: 'members', memberIds: [] }),
        'memberIds',
      ],
      [stack.http.post(`/api/cloud/files/${file.id}/star`).set(h).send({ starred: 'yes' }), 'starred'],
      [
        stack.http
          .post('/api/cloud/files/bulk-delete')
          .set(h)
          .send({ fileIds: ['x'] }),
        'fileIds',
      ],
      [
        stack.http
          .post('/api/cloud/files/bulk-move')
          .set(h)
          .send({ folderIds: Array(501).fill(file.id) }),
        'folderIds',
      ],
      [stack.http.get('/api/cloud/folders/contents?sort=colour&order=up&limit=0').set(h), 'sort', 'order', 'limit'],
      [stack.http.get('/api/cloud/folders/search?type=movie&q=').set(h), 'type', 'q'],
      [stack.http.get('/api/cloud/folders/trash?cursor=%24%24').set(h), 'cursor'],
      [stack.http.post('/api/cloud/folders').set(h).send({ name: '   ' }), 'name'],
      [stack.http.post('/api/cloud/documents').set(h).send({ type: 'pdf' }), 'type'],
      [stack.http.post('/api/cloud/shared/short').send({}), 'token'],
      [
        stack.http
          .post('/api/cloud/internal/usage')
          .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
          .send({ tenantId: 'x', eventId: 'a b', deltaBytes: 1e300, source: 'Docs' }),
        'tenantId',
        'eventId',
        'deltaBytes',
        'source',
      ],
    ];
    for (const [call, ...fields] of cases) expectFieldErrors(await call, ...fields);
    expectProblem(
      await stack.http
        .post('/api/cloud/files/bulk-move')
        .set(h)
        .send({ fileIds: [file.id], folderId: '01900000-0000-7000-8000-000000000000' }),
      404,
      'not_found',
    );
  });
});
