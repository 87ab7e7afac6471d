import { createAppPassword } from '../support/appPasswords';
import { mkdir, putBytes, uploadFile } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

const LOCKINFO = `<?xml version="1.0" encoding="utf-8"?>
<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype>
<D:owner>office suite</D:owner></D:lockinfo>`;

/** A WebDAV lock holds against the API and share links too: they carry no lock token, so they get 423 `locked`. */
describe('cloud: WebDAV locks hold against API and link writes', () => {
  let stack: TestStack;
  let owner: Account;
  let basic: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    const app = await createAppPassword(stack, owner, ['webdav']);
    basic = `Basic ${Buffer.from(`${app.login}:${app.password}`).toString('base64')}`;
  });
  afterAll(() => stack.close());

  const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${stack.url}/dav/files/${path}`, { method, headers: { Authorization: basic, ...headers }, body });
  const lock = async (path: string, depth: '0' | 'infinity') => {
    const res = await dav(
      'LOCK',
      path,
      { Depth: depth, 'Content-Type': 'application/xml', Timeout: 'Second-600' },
      LOCKINFO,
    );
    expect(res.status).toBe(200);
    return res.headers.get('lock-token')!;
  };
  const linkOf = async (path: string, body: object) => {
    const made = await stack.http.post(path).set(owner.auth).send(body);
    expect(made.status).toBe(201);
    const opened = await stack.http.post(`/api/cloud/shared/${made.body.url.split('/').pop()}`).send({});
    return opened.body.uploadUrl as string;
  };
  const put = (url: string, body: string) =>
    fetch(url, { method: 'PUT', body, headers: { 'Content-Type': 'text/plain' } }).then(async (r) => ({
      status: r.status,
      body: (await r.json().catch(() => null)) as { code?: string } | null,
    }));

  it('refuses overwrites, renames, moves, trash and link edits of a locked file until it is unlocked', async () => {
    const file = await uploadFile(stack, owner, 'budget.ods', 'v0');
    const other = await uploadFile(stack, owner, 'free.txt', 'free');
    const edit = await linkOf(`/api/cloud/files/${file.id}/share`, { kind: 'link', permission: 'edit' });
    // A version to restore: v0 replaced by v1 over WebDAV before the lock.
    expect((await dav('PUT', 'budget.ods', {}, 'v1')).status).toBeLessThan(300);
    const versions = await stack.http.get(`/api/cloud/files/${file.id}/versions`).set(owner.auth).expect(200);
    // Step 1 of an overwrite taken before the lock: its confirmation is refused too, and can be made once unlocked.
    const early = await stack.http
      .post(`/api/cloud/files/${file.id}/upload-url`)
      .set(owner.auth)
      .send({ size: 2, contentType: 'text/plain' });
    expect(await putBytes(early.body, 'v2')).toBeLessThan(300);
    const token = await lock('budget.ods', '0');

    expectProblem(
      await stack.http
        .post(`/api/cloud/files/${file.id}/upload-url`)
        .set(owner.auth)
        .send({ size: 2, contentType: 'text/plain' }),
      423,
      'locked',
    );
    expectProblem(
      await stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: early.body.uploadId }),
      423,
      'locked',
    );
    expectProblem(
      await stack.http.patch(`/api/cloud/files/${file.id}`).set(owner.auth).send({ name: 'x.ods' }),
      423,
      'locked',
    );
    expectProblem(await stack.http.delete(`/api/cloud/files/${file.id}`).set(owner.auth), 423, 'locked');
    expectProblem(
      await stack.http
        .post('/api/cloud/files/bulk-delete')
        .set(owner.auth)
        .send({ fileIds: [other.id, file.id] }),
      423,
      'locked',
    );
    const folder = await mkdir(stack, owner, 'Elsewhere');
    expectProblem(
      await stack.http.post(`/api/cloud/files/${file.id}/move`).set(owner.auth).send({ folderId: folder.id }),
      423,
      'locked',
    );
    expect(await put(edit, 'from the link')).toMatchObject({ status: 423, body: { code: 'locked' } });
    expectProblem(
      await stack.http
        .post(`/api/cloud/files/${file.id}/versions/${versions.body.items[0].id}/restore`)
        .set(owner.auth),
      423,
      'locked',
    );
    // Nothing changed; a file the lock does not cover is free.
    expect(await (await dav('GET', 'budget.ods')).text()).toBe('v1');
    await stack.http.patch(`/api/cloud/files/${other.id}`).set(owner.auth).send({ name: 'still-free.txt' }).expect(200);

    // The lock holder's own PUT goes through; once unlocked, so do the others.
    expect((await dav('PUT', 'budget.ods', { If: `(${token})` }, 'v3')).status).toBeLessThan(300);
    expect((await dav('UNLOCK', 'budget.ods', { 'Lock-Token': token })).status).toBe(204);
    await stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: early.body.uploadId })
      .expect(200);
    expect((await put(edit, 'from the link')).status).toBe(204);
    expect(await (await dav('GET', 'budget.ods')).text()).toBe('from the link');
  });

  it('a depth-infinity lock of a folder refuses drops into it and the deletion of the folder', async () => {
    const folder = await mkdir(stack, owner, 'Locked box');
    const drop = await linkOf(`/api/cloud/folders/${folder.id}/share`, {});
    const token = await lock('Locked box', 'infinity');
    expect(await put(`${drop}&name=new.txt`, 'hello')).toMatchObject({ status: 423, body: { code: 'locked' } });
    expectProblem(await stack.http.delete(`/api/cloud/folders/${folder.id}`).set(owner.auth), 423, 'locked');
    const root = await mkdir(stack, owner, 'Parent');
    expectProblem(
      await stack.http
        .post('/api/cloud/files/bulk-move')
        .set(owner.auth)
        .send({ folderIds: [root.id], folderId: folder.id }),
      423,
      'locked',
    );
    expect((await dav('UNLOCK', 'Locked%20box', { 'Lock-Token': token })).status).toBe(204);
    expect((await put(`${drop}&name=new.txt`, 'hello')).status).toBe(201);
  });
});
