import { CloudShare } from '../../entities/cloud/share';
import { noticeExpiringShares } from '../../domain/cloud/noticeExpiringShares';
import { download, mkdir, uploadFile, type Uploaded } from '../support/cloud';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem, mailsTo } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/** Links that do more than download: edit links, drop folders (upload-only), and the creator told before expiry. */
describe('cloud link shares: edit, drop folders, expiry notices', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const tokenOf = (url: string) => url.split('/').pop()!;
  const open = (token: string, body: object = {}) => stack.http.post(`/api/cloud/shared/${token}`).send(body);
  const put = (url: string, body: string, headers: Record<string, string> = { 'Content-Type': 'text/plain' }) =>
    fetch(url, { method: 'PUT', body, headers }).then(async (r) => ({ status: r.status, body: await r.text() }));
  const contents = async (folderId: string) =>
    (await stack.http.get(`/api/cloud/folders/${folderId}/contents`).set(owner.auth)).body.items as Uploaded[];

  it('an edit link replaces the content, keeping the previous one as a version; a view link may not', async () => {
    const file = await uploadFile(stack, owner, 'plan.txt', 'first');
    const made = await stack.http
      .post(`/api/cloud/files/${file.id}/share`)
      .set(owner.auth)
      .send({ kind: 'link', permission: 'edit' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ permission: 'edit', fileId: file.id, folderId: null });
    const opened = await open(tokenOf(made.body.url));
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ kind: 'file', permission: 'edit', name: 'plan.txt', size: 5 });
    expect(opened.body.uploadUrl).toMatch(/\/content\?t=/);

    expect((await put(opened.body.uploadUrl, 'second!')).status).toBe(204);
    expect((await download(stack, owner, file.id)).bytes.toString()).toBe('second!');
    const versions = (await stack.http.get(`/api/cloud/files/${file.id}/versions`).set(owner.auth)).body.items;
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ size: 5 });
    // The link still downloads, the new content.
    expect(await (await fetch(opened.body.url)).text()).toBe('second!');

    const view = await stack.http.post(`/api/cloud/files/${file.id}/share`).set(owner.auth).send({ kind: 'link' });
    expect(view.body.permission).toBe('view');
    const viewed = (await open(tokenOf(view.body.url))).body;
    expect(viewed.uploadUrl).toBeNull();
    const viaView = `${viewed.url.replace('/download?', '/content?')}`;
    const refused = await put(viaView, 'nope');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'share_permission_denied' });
    // A body without its length, or a tampered t, changes nothing.
    const bad = await put(opened.body.uploadUrl.replace(/t=[^&]+/, 't=1.abc'), 'x');
    expect(bad.status).toBe(403);
    expect((await download(stack, owner, file.id)).bytes.toString()).toBe('second!');
  });

  it('a drop folder takes new files, never shows nor replaces what is there, counted in the quota', async () => {
    const folder = await mkdir(stack, owner, 'Inbox');
    await uploadFile(stack, owner, 'secret.txt', 'do not read', { folderId: folder.id });
    const made = await stack.http
      .post(`/api/cloud/folders/${folder.id}/share`)
      .set(owner.auth)
      .send({ password: 'drop it here' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ kind: 'link', permission: 'upload', folderId: folder.id, fileId: null });
    const token = tokenOf(made.body.url);

    expectProblem(await open(token), 401, 'share_password_required');
    const opened = await open(token, { password: 'drop it here' });
    expect(opened.status).toBe(200);
    expect(opened.body).toEqual({
      kind: 'folder',
      permission: 'upload',
      name: 'Inbox',
      size: null,
      contentType: null,
      url: null,
      uploadUrl: expect.stringMatching(/\/files\?t=/),
      listUrl: null,
      expiresAt: expect.any(String),
    });
    expect(JSON.stringify(opened.body)).not.toContain(owner.tenantId);

    const before = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body.usedBytes;
    const drop = (name: string, body: string) => put(`${opened.body.uploadUrl}&name=${encodeURIComponent(name)}`, body);
    const first = await drop('secret.txt', 'from outside');
    expect(first.status).toBe(201);
    expect(first.body).toBe('');
    expect((await drop('report été.pdf', 'pdf bytes')).status).toBe(201);
    const names = (await contents(folder.id)).map((i) => i.name).sort();
    expect(names).toEqual(['report été.pdf', 'secret (2).txt', 'secret.txt']);
    const dropped = (await contents(folder.id)).find((i) => i.name === 'secret (2).txt')!;
    expect(dropped).toMatchObject({ size: 12, createdBy: null });
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body.usedBytes).toBe(before + 12 + 9);

    // Nothing to read through it: no download, no listing, no overwrite.
    const t = new URL(opened.body.uploadUrl).searchParams.get('t')!;
    expectProblem(
      await stack.http.get(`/api/cloud/shared/${token}/download?t=${encodeURIComponent(t)}`),
      403,
      'share_permission_denied',
    );
    const overwrite = await put(opened.body.uploadUrl.replace('/files?', '/content?'), 'x');
    expect(overwrite.status).toBe(403);
    // Bad names and a missing name are 400, a missing length 411; nothing is stored.
    expect((await drop('../escape', 'x')).status).toBe(400);
    expect((await put(opened.body.uploadUrl, 'x')).status).toBe(400);
    // A streamed body (chunked, no Content-Length) cannot be reserved in the quota first.
    const noLength = await fetch(`${opened.body.uploadUrl}&name=a.txt`, {
      method: 'PUT',
      body: new Blob(['abc']).stream(),
      duplex: 'half',
    } as RequestInit);
    await noLength.text();
    expect(noLength.status).toBe(411);
    expect((await contents(folder.id)).map((i) => i.name)).toHaveLength(3);

    // Revoked: the link is gone; files are upload-only links of folders only.
    expect(
      (await stack.http.get(`/api/cloud/folders/${folder.id}/shares`).set(owner.auth)).body.items.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual([made.body.id]);
    expect(
      (await stack.http.delete(`/api/cloud/folders/${folder.id}/shares/${made.body.id}`).set(owner.auth)).status,
    ).toBe(204);
    expect((await drop('late.txt', 'x')).status).toBe(404);
    const file = await uploadFile(stack, owner, 'solo.txt', 'x');
    expectProblem(
      await stack.http
        .post(`/api/cloud/files/${file.id}/share`)
        .set(owner.auth)
        .send({ kind: 'link', permission: 'upload' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http
        .post(`/api/cloud/files/${file.id}/share`)
        .set(owner.auth)
        .send({ kind: 'members', memberIds: [owner.user.id], permission: 'edit' }),
      400,
      'validation_failed',
    );
  });

  it('drop links need cloud.share, and are not another organisation’s to make or list', async () => {
    const folder = await mkdir(stack, owner, 'Private');
    const member = await addMember(stack, owner);
    expectProblem(
      await stack.http.post(`/api/cloud/folders/${folder.id}/share`).set(member.auth).send({}),
      403,
      'permission_denied',
    );
    const stranger = await createAccount(stack);
    expectProblem(
      await stack.http.post(`/api/cloud/folders/${folder.id}/share`).set(stranger.auth).send({}),
      404,
      'not_found',
    );
    expectProblem(await stack.http.get(`/api/cloud/folders/${folder.id}/shares`).set(stranger.auth), 404, 'not_found');
  });

  it('tells the creator once, before a link expires; not revoked, expired or departed creators', async () => {
    const file = await uploadFile(stack, owner, 'brochure.pdf', 'pdf', { contentType: 'application/pdf' });
    const link = (expiresAt: Date) =>
      stack.http
        .post(`/api/cloud/files/${file.id}/share`)
        .set(owner.auth)
        .send({ kind: 'link', expiresAt: expiresAt.toISOString() });
    const soon = await link(new Date(Date.now() + 3600_000));
    const later = await link(new Date(Date.now() + 7 * 86_400_000));
    const revoked = await link(new Date(Date.now() + 3600_000));
    await stack.http.delete(`/api/cloud/files/${file.id}/shares/${revoked.body.id}`).set(owner.auth);
    const colleague = await addMember(stack, owner, 'admin');
    const departed = await stack.http
      .post(`/api/cloud/files/${file.id}/share`)
      .set(colleague.auth)
      .send({ kind: 'link', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect(departed.status).toBe(201);
    expect(
      (await stack.http.delete(`/orgs/${owner.tenantId}/members/${colleague.user.id}`).set(owner.auth)).status,
    ).toBe(204);

    expect(await noticeExpiringShares(stack.services)).toBeGreaterThanOrEqual(1);
    const mails = (await mailsTo(stack, owner.email, 'share_expiring')).filter((m) => m.text.includes('brochure.pdf'));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Your link to "brochure.pdf" expires soon');
    expect(mails[0].text).toContain(`/drive/files/${file.id}/shares`);
    expect(await mailsTo(stack, colleague.email, 'share_expiring')).toHaveLength(0);

    // Once: a second pass mails nothing more; the later link waits for its own window.
    await noticeExpiringShares(stack.services);
    expect(
      (await mailsTo(stack, owner.email, 'share_expiring')).filter((m) => m.text.includes('brochure')),
    ).toHaveLength(1);
    const rows = await stack.services.orm.em
      .fork()
      .find(CloudShare, { id: [soon.body.id, later.body.id] }, { filters: false });
    const noticed = Object.fromEntries(rows.map((r) => [r.id, r.expiryNotifiedAt !== null]));
    expect(noticed).toEqual({ [soon.body.id]: true, [later.body.id]: false });
    await noticeExpiringShares(stack.services, Date.now() + 7 * 86_400_000 - 3600_000);
    expect(
      (await mailsTo(stack, owner.email, 'share_expiring')).filter((m) => m.text.includes('brochure')),
    ).toHaveLength(2);
  });
});
