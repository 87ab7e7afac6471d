import { uploadFile } from '../support/cloud';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

/** Shares changed in place (PATCH): links keep their address, what changed holds from the next use; all audited. */
describe('cloud shares: changed in place, audited', () => {
  let stack: TestStack;
  let owner: Account;
  let colleague: Account;
  let other: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    [colleague, other] = await Promise.all([addMember(stack, owner), addMember(stack, owner)]);
  });
  afterAll(() => stack.close());

  const tokenOf = (url: string) => url.split('/').pop()!;
  const open = (token: string, body: object = {}) => stack.http.post(`/api/cloud/shared/${token}`).send(body);
  const patch = (fileId: string, shareId: string, body: object, kind = 'files') =>
    stack.http.patch(`/api/cloud/${kind}/${fileId}/shares/${shareId}`).set(owner.auth).send(body);
  const put = (url: string, body: string) =>
    fetch(url, { method: 'PUT', body, headers: { 'Content-Type': 'text/plain' } }).then(async (r) => ({
      status: r.status,
      body: (await r.json().catch(() => null)) as { code?: string } | null,
    }));

  it("a link's password, permission and expiry change in place; a new password ends the addresses opened before", async () => {
    const file = await uploadFile(stack, owner, 'offer.txt', 'v1');
    const made = await stack.http
      .post(`/api/cloud/files/${file.id}/share`)
      .set(owner.auth)
      .send({ kind: 'link', password: 'first secret' });
    expect(made.status).toBe(201);
    const token = tokenOf(made.body.url);
    const before = await open(token, { password: 'first secret' });
    expect(before.status).toBe(200);
    expect((await fetch(before.body.url)).status).toBe(200);

    const changed = await patch(file.id, made.body.id, { password: 'second secret', permission: 'edit' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: made.body.id, permission: 'edit', passwordProtected: true, url: null });
    // The address opened with the former password is dead; the link itself (same token) opens with the new one.
    expect((await fetch(before.body.url)).status).toBe(403);
    expectProblem(await open(token, { password: 'first secret' }), 403, 'share_password_invalid');
    const after = await open(token, { password: 'second secret' });
    expect(after.body).toMatchObject({ permission: 'edit' });
    expect((await put(after.body.uploadUrl, 'v2')).status).toBe(204);

    // Back to view: the edit address opened meanwhile is refused at its next use.
    await patch(file.id, made.body.id, { permission: 'view' }).expect(200);
    expect(await put(after.body.uploadUrl, 'v3')).toMatchObject({
      status: 403,
      body: { code: 'share_permission_denied' },
    });
    // Password removed: opens without one. An expiry set, then cleared; one in the past is a 400.
    await patch(file.id, made.body.id, { password: null }).expect(200);
    expect((await open(token)).status).toBe(200);
    const soon = new Date(Date.now() + 3_600_000).toISOString();
    expect((await patch(file.id, made.body.id, { expiresAt: soon })).body.expiresAt).toBe(soon);
    expect((await patch(file.id, made.body.id, { expiresAt: null })).body.expiresAt).toBeNull();
    expectProblem(
      await patch(file.id, made.body.id, { expiresAt: new Date(Date.now() - 1000).toISOString() }),
      400,
      'validation_failed',
    );
    expectProblem(await patch(file.id, made.body.id, { memberIds: [colleague.user.id] }), 400, 'validation_failed');
    expectProblem(await patch(file.id, made.body.id, { permission: 'upload' }), 400, 'validation_failed');

    // Revoked: nothing to change any more.
    await stack.http.delete(`/api/cloud/files/${file.id}/shares/${made.body.id}`).set(owner.auth).expect(204);
    expectProblem(await patch(file.id, made.body.id, { permission: 'edit' }), 409, 'share_revoked');

    // Every step is in the organisation's audit log, never the password.
    const log = await stack.http
      .get(`/orgs/${owner.tenantId}/audit-log`)
      .query({ targetType: 'cloud_share', targetId: made.body.id })
      .set(owner.auth);
    expect(log.status).toBe(200);
    const entries = log.body.items as { action: string; actorId: string; data: Record<string, unknown> }[];
    expect(entries.map((e) => e.action).reverse()).toEqual([
      'cloud.share_created',
      'cloud.share_updated',
      'cloud.share_updated',
      'cloud.share_updated',
      'cloud.share_updated',
      'cloud.share_updated',
      'cloud.share_revoked',
    ]);
    expect(entries.every((e) => e.actorId === owner.user.id)).toBe(true);
    expect(entries[entries.length - 1].data).toMatchObject({ kind: 'link', passwordProtected: true, nodeId: file.id });
    expect(JSON.stringify(entries)).not.toMatch(/secret/);
  });

  it("a member share's members change: added ones see the file, removed ones no longer do", async () => {
    const file = await uploadFile(stack, owner, 'minutes.txt', 'm');
    const sharedWith = async (who: Account) =>
      ((await stack.http.get('/api/cloud/shared-with-me').set(who.auth)).body.items as { item: { id: string } }[]).map(
        (e) => e.item.id,
      );
    const made = await stack.http
      .post(`/api/cloud/files/${file.id}/share`)
      .set(owner.auth)
      .send({ kind: 'members', memberIds: [colleague.user.id] })
      .expect(201);
    expect(await sharedWith(colleague)).toContain(file.id);
    const swapped = await patch(file.id, made.body.id, { memberIds: [other.user.id, other.user.id] });
    expect(swapped.body.memberIds).toEqual([other.user.id]);
    expect(await sharedWith(colleague)).not.toContain(file.id);
    expect(await sharedWith(other)).toContain(file.id);
    const stranger = await createAccount(stack);
    expectProblem(await patch(file.id, made.body.id, { memberIds: [stranger.user.id] }), 400, 'validation_failed');
    expectProblem(await patch(file.id, made.body.id, { memberIds: [] }), 400, 'validation_failed');
    expectProblem(await patch(file.id, made.body.id, { password: 'not for members' }), 400, 'validation_failed');
    // A member may not change it through a share of another file; another organisation sees no share.
    expectProblem(
      await stack.http.patch(`/api/cloud/files/${file.id}/shares/${made.body.id}`).set(stranger.auth).send({}),
      404,
      'not_found',
    );
  });

  it('a drop link never edits; its expiry and password change', async () => {
    const folder = (await stack.http.post('/api/cloud/folders').set(owner.auth).send({ name: 'Inbox' }).expect(201))
      .body as { id: string };
    const drop = await stack.http.post(`/api/cloud/folders/${folder.id}/share`).set(owner.auth).send({}).expect(201);
    expectProblem(await patch(folder.id, drop.body.id, { permission: 'edit' }, 'folders'), 400, 'validation_failed');
    const changed = await patch(folder.id, drop.body.id, { password: 'drop password' }, 'folders');
    expect(changed.body).toMatchObject({ permission: 'upload', passwordProtected: true, folderId: folder.id });
    expectProblem(await open(tokenOf(drop.body.url)), 401, 'share_password_required');
  });
});
