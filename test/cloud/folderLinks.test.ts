import { mkdir, uploadFile } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

interface Listed {
  folder: { id: string; name: string };
  path: { id: string; name: string }[];
  items: { id: string; kind: string; name: string; size: number; downloadUrl: string | null }[];
  nextCursor: string | null;
}

/** Folder links that list and download (`view`), checked at every use: the subtree only, live items only. */
describe('cloud folder view links', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const tokenOf = (url: string) => url.split('/').pop()!;
  const get = async (url: string) => {
    const res = await fetch(url);
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as Listed & { code?: string } };
  };

  it('lists the shared folder and its subfolders, downloads their files, and nothing outside', async () => {
    const project = await mkdir(stack, owner, 'Project');
    const sub = await mkdir(stack, owner, 'Sub', project.id);
    const other = await mkdir(stack, owner, 'Other');
    const a = await uploadFile(stack, owner, 'a.txt', 'alpha', { folderId: project.id });
    const b = await uploadFile(stack, owner, 'b.txt', 'bravo', { folderId: sub.id });
    const c = await uploadFile(stack, owner, 'c.txt', 'charlie', { folderId: other.id });

    const made = await stack.http
      .post(`/api/cloud/folders/${project.id}/share`)
      .set(owner.auth)
      .send({ permission: 'view', password: 'folder secret' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ permission: 'view', folderId: project.id, fileId: null });
    const token = tokenOf(made.body.url);
    const opened = await stack.http.post(`/api/cloud/shared/${token}`).send({ password: 'folder secret' });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      kind: 'folder',
      permission: 'view',
      name: 'Project',
      url: null,
      uploadUrl: null,
    });
    const listUrl = opened.body.listUrl as string;

    const top = await get(listUrl);
    expect(top.status).toBe(200);
    expect(top.json()).toMatchObject({
      folder: { id: project.id, name: 'Project' },
      path: [{ id: project.id, name: 'Project' }],
      items: [
        { id: sub.id, kind: 'folder', name: 'Sub', downloadUrl: null },
        { id: a.id, kind: 'file', name: 'a.txt', size: 5 },
      ],
      nextCursor: null,
    });
    expect(top.text).not.toContain(owner.tenantId);
    expect(top.text).not.toContain(owner.user.id);
    const fileA = top.json().items[1];
    const downloaded = await fetch(fileA.downloadUrl!);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-disposition')).toContain('a.txt');
    expect(await downloaded.text()).toBe('alpha');

    // A page at a time; a subfolder by id, with its path from the shared folder.
    const first = (await get(`${listUrl}&limit=1`)).json();
    expect(first.items.map((i) => i.name)).toEqual(['Sub']);
    expect((await get(`${listUrl}&limit=1&cursor=${first.nextCursor}`)).json().items.map((i) => i.name)).toEqual([
      'a.txt',
    ]);
    const inner = (await get(`${listUrl}&folderId=${sub.id}`)).json();
    expect(inner.path.map((p) => p.name)).toEqual(['Project', 'Sub']);
    expect(inner.items.map((i) => i.name)).toEqual(['b.txt']);
    const fileB = inner.items[0].downloadUrl!;
    expect(await (await fetch(fileB)).text()).toBe('bravo');

    // Outside the shared folder: 404, by listing or by download address.
    const t = new URL(listUrl).searchParams.get('t')!;
    expect((await get(`${listUrl}&folderId=${other.id}`)).status).toBe(404);
    expect((await get(`${stack.url}/api/cloud/shared/${token}/items/${c.id}/download?t=${t}`)).status).toBe(404);
    // Moved out: out of reach at once. Trashed: gone.
    await stack.http.post(`/api/cloud/files/${b.id}/move`).set(owner.auth).send({ folderId: null }).expect(200);
    expect((await get(fileB)).status).toBe(404);
    await stack.http.delete(`/api/cloud/folders/${sub.id}`).set(owner.auth).expect(204);
    expect((await get(`${listUrl}&folderId=${sub.id}`)).status).toBe(404);
    expect((await get(listUrl)).json().items.map((i) => i.name)).toEqual(['a.txt']);

    // Not a way to write, nor to the old single-file download; a forged t is refused.
    const put = await fetch(`${stack.url}/api/cloud/shared/${token}/files?t=${t}&name=x.txt`, {
      method: 'PUT',
      body: 'x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(put.status).toBe(403);
    expect((await get(`${stack.url}/api/cloud/shared/${token}/download?t=${t}`)).json().code).toBe(
      'share_permission_denied',
    );
    expect((await get(listUrl.replace(/t=[^&]+/, 't=1.abc'))).json().code).toBe('download_token_invalid');

    // Turned into a drop folder: it lists nothing any more. Its password changed: the addresses opened are dead.
    await stack.http
      .patch(`/api/cloud/folders/${project.id}/shares/${made.body.id}`)
      .set(owner.auth)
      .send({ permission: 'upload' })
      .expect(200);
    expect((await get(listUrl)).json().code).toBe('share_permission_denied');
    await stack.http
      .patch(`/api/cloud/folders/${project.id}/shares/${made.body.id}`)
      .set(owner.auth)
      .send({ permission: 'view', password: 'another secret' })
      .expect(200);
    expect((await get(listUrl)).json().code).toBe('download_token_invalid');
  });

  it("a drop link's address lists nothing; a view link to a file's id is refused", async () => {
    const box = await mkdir(stack, owner, 'Box');
    const drop = await stack.http.post(`/api/cloud/folders/${box.id}/share`).set(owner.auth).send({}).expect(201);
    const opened = await stack.http.post(`/api/cloud/shared/${tokenOf(drop.body.url)}`).send({});
    expect(opened.body).toMatchObject({ permission: 'upload', listUrl: null });
    const t = new URL(opened.body.uploadUrl).searchParams.get('t')!;
    expect((await get(`${stack.url}/api/cloud/shared/${tokenOf(drop.body.url)}/items?t=${t}`)).json().code).toBe(
      'share_permission_denied',
    );
    expectProblem(
      await stack.http.post(`/api/cloud/folders/${box.id}/share`).set(owner.auth).send({ permission: 'edit' }),
      400,
      'validation_failed',
    );
  });
});
