import { Client } from 'pg';
import { purgeNodes } from '../../domain/cloud/purge';
import { mkdir, putBytes, uploadUrl } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { lockWaiters } from './lockWaits';

/**
 * Deleting a folder and adding to its subtree are serialised (domain/cloud/trashNodes.ts trashSubtree, the parent trigger
 * of Migration20261207000500_cloud_trash_locks): nothing stays live under a trashed folder, so nothing outlives its
 * purge in the quota.
 */
describe('cloud: deleting a folder while its subtree grows', () => {
  let stack: TestStack;
  let owner: Account;
  let other: Client;
  let otherPid: number;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'pro' });
  });
  beforeEach(async () => {
    other = new Client({ connectionString: stack.config.DATABASE_URL });
    await other.connect();
    otherPid = (await other.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
  });
  afterEach(() => other.end());
  afterAll(() => stack.close());

  const state = async () => ({
    quota: (await stack.http.get('/api/cloud/quota').set(owner.auth)).body,
    trash: (await stack.http.get('/api/cloud/folders/trash').set(owner.auth)).body.items.length,
    root: (await stack.http.get('/api/cloud/folders/contents').set(owner.auth)).body.items.length,
  });

  it('trashes a file confirmed into a subfolder while the deletion waits, and frees its bytes at the purge', async () => {
    const top = await mkdir(stack, owner, 'Projects');
    const sub = await mkdir(stack, owner, 'Client A', top.id);
    const bytes = Buffer.from('quarterly numbers');
    const ticket = await uploadUrl(stack, owner, {
      name: 'numbers.txt',
      size: bytes.length,
      contentType: 'text/plain',
      folderId: sub.id,
    });
    expect(await putBytes(ticket, bytes)).toBeLessThan(300);

    // A concurrent request working in the subfolder holds it the way createFolder does (lockFolder: FOR SHARE):
    // the deletion reaches the subfolder and waits behind it.
    await other.query('begin');
    await other.query('select id from cloud_nodes where id = $1 for share', [sub.id]);
    const deletion = stack.http
      .delete(`/api/cloud/folders/${top.id}`)
      .set(owner.auth)
      .then((r) => r);
    await lockWaiters(stack, 1, otherPid);
    // Meanwhile the upload into the subfolder (still live) is confirmed.
    const confirmed = await stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: ticket.uploadId });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body.parentId).toBe(sub.id);
    await other.query('commit');
    expect((await deletion).status).toBe(204);

    // It went to the trash with the folder.
    expect((await stack.http.get(`/api/cloud/files/${ticket.uploadId}/download-url`).set(owner.auth)).status).toBe(404);
    expect((await stack.http.get('/api/cloud/folders/search?q=numbers').set(owner.auth)).body.items).toEqual([]);
    expect(
      (await stack.http.get('/api/cloud/folders/trash').set(owner.auth)).body.items.map((i: { id: string }) => i.id),
    ).toEqual([top.id]);
    expect((await state()).quota.usedBytes).toBe(bytes.length);
    await purgeNodes(stack.services, owner.tenantId, { trashRootIds: [top.id] });
    const after = await state();
    expect({
      usedBytes: after.quota.usedBytes,
      reservedBytes: after.quota.reservedBytes,
      trash: after.trash,
      root: after.root,
    }).toEqual({ usedBytes: 0, reservedBytes: 0, trash: 0, root: 0 });
  });

  it('makes an upload confirmed or a folder created while the deletion holds the subtree wait, then land at the root or 404', async () => {
    const top = await mkdir(stack, owner, 'Archive');
    const sub = await mkdir(stack, owner, 'Old', top.id);
    const ticket = await uploadUrl(stack, owner, {
      name: 'late.txt',
      size: 4,
      contentType: 'text/plain',
      folderId: sub.id,
    });
    expect(await putBytes(ticket, 'late')).toBeLessThan(300);

    // A deletion as trashNodes runs it, paused after locking the subtree (FOR UPDATE) and trashing it.
    await other.query('begin');
    await other.query('select id from cloud_nodes where id = any($1::uuid[]) order by id for update', [
      [top.id, sub.id],
    ]);
    await other.query('update cloud_nodes set trashed_at = now(), trash_root_id = $1 where id = any($2::uuid[])', [
      top.id,
      [top.id, sub.id],
    ]);
    const confirm = stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: ticket.uploadId })
      .then((r) => r);
    const folder = stack.http
      .post('/api/cloud/folders')
      .set(owner.auth)
      .send({ name: 'New', parentId: sub.id })
      .then((r) => r);
    // Both wait behind the deletion's locks on the subfolder.
    await lockWaiters(stack, 2, otherPid);
    await other.query('commit');
    const confirmed = await confirm;
    expect(confirmed.status).toBe(201);
    expect(confirmed.body).toMatchObject({ name: 'late.txt', parentId: null });
    expectProblem(await folder, 404, 'not_found');
    await stack.http.delete(`/api/cloud/files/${confirmed.body.id}`).set(owner.auth).expect(204);
    await purgeNodes(stack.services, owner.tenantId, { trashRootIds: [top.id, confirmed.body.id] });
    expect((await state()).quota).toMatchObject({ usedBytes: 0, reservedBytes: 0 });
  });

  it('refuses in the database a folder trashed with a live node inside, and a node added or restored under a trashed folder', async () => {
    const top = await mkdir(stack, owner, 'Guarded');
    const sub = await mkdir(stack, owner, 'Inner', top.id);
    // One statement trashing the folder alone (its subfolder left live): refused.
    await expect(
      other.query(`update cloud_nodes set trashed_at = now(), trash_root_id = id where id = $1`, [top.id]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'cloud_nodes_trashed_parent' });
    // The whole subtree in one statement: accepted.
    await other.query(`update cloud_nodes set trashed_at = now(), trash_root_id = $1 where id = any($2::uuid[])`, [
      top.id,
      [top.id, sub.id],
    ]);
    await expect(
      other.query(
        `insert into cloud_nodes (id, tenant_id, created_at, updated_at, kind, purpose, parent_id, name, size) values (gen_random_uuid(), $1, now(), now(), 'folder', 'file', $2, 'x', 0)`,
        [owner.tenantId, sub.id],
      ),
    ).rejects.toMatchObject({ code: '23514', constraint: 'cloud_nodes_parent_folder' });
    // Restoring the subfolder alone under its trashed parent: refused; the API restores the whole deletion.
    await expect(
      other.query(`update cloud_nodes set trashed_at = null, trash_root_id = null where id = $1`, [sub.id]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'cloud_nodes_parent_folder' });
    const back = await stack.http.post(`/api/cloud/folders/${top.id}/restore`).set(owner.auth).send();
    expect(back.status).toBe(200);
    const inner = await stack.http.get(`/api/cloud/folders/${top.id}/contents`).set(owner.auth);
    expect(inner.body.items.map((i: { id: string }) => i.id)).toEqual([sub.id]);
  });
});
