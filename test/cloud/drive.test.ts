import { CloudNode } from '../../entities/cloud/node';
import { purgeNodes } from '../../domain/cloud/purge';
import { purgeExpiredTrash } from '../../domain/cloud/purgeExpiredTrash';
import { download, mkdir, putBytes, uploadFile, uploadUrl } from '../support/cloud';
import { addMember, createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';
import { lockWaiters } from './lockWaits';

describe('cloud drive: folders, listings, moves, trash', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((i) => i.name);

  it('creates folders with sanitised names, numbering a taken one, and shows the breadcrumb', async () => {
    const docs = await mkdir(stack, owner, '  Docs/2024\u0007  ');
    expect(docs.name).toBe('Docs_2024_');
    expect((await mkdir(stack, owner, 'docs/2024\u0007')).name).toBe('docs_2024_ (2)');
    const inner = await mkdir(stack, owner, 'Inner', docs.id);
    const deepest = await mkdir(stack, owner, 'Deepest', inner.id);
    const crumb = await stack.http.get(`/api/cloud/folders/${deepest.id}/breadcrumb`).set(owner.auth);
    expect(crumb.body.items).toEqual([
      { id: docs.id, name: 'Docs_2024_' },
      { id: inner.id, name: 'Inner' },
      { id: deepest.id, name: 'Deepest' },
    ]);
    expectProblem(
      await stack.http.post('/api/cloud/folders').set(owner.auth).send({ name: '..' }),
      400,
      'validation_failed',
    );
  });

  it('lists contents folders first, sorted by name, size or date, with cursor pagination', async () => {
    const box = await mkdir(stack, owner, 'Box');
    await mkdir(stack, owner, 'zeta', box.id);
    await uploadFile(stack, owner, 'b.txt', 'bb', { folderId: box.id });
    await uploadFile(stack, owner, 'A.txt', 'aaaa', { folderId: box.id });
    await uploadFile(stack, owner, 'c.txt', 'c', { folderId: box.id });
    const byName = await stack.http.get(`/api/cloud/folders/${box.id}/contents`).set(owner.auth);
    expect(byName.status).toBe(200);
    expect(byName.body.folder).toMatchObject({ id: box.id, name: 'Box', type: 'folder' });
    expect(names(byName)).toEqual(['zeta', 'A.txt', 'b.txt', 'c.txt']);
    expect(
      names(await stack.http.get(`/api/cloud/folders/${box.id}/contents?sort=size&order=desc`).set(owner.auth)),
    ).toEqual(['zeta', 'A.txt', 'b.txt', 'c.txt']);
    expect(names(await stack.http.get(`/api/cloud/folders/${box.id}/contents?sort=size`).set(owner.auth))).toEqual([
      'zeta',
      'c.txt',
      'b.txt',
      'A.txt',
    ]);
    expect(
      names(await stack.http.get(`/api/cloud/folders/${box.id}/contents?sort=date&order=desc`).set(owner.auth)),
    ).toEqual(['zeta', 'c.txt', 'A.txt', 'b.txt']);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { name: string }[]; nextCursor: string | null } } = await stack.http
        .get(`/api/cloud/folders/${box.id}/contents?limit=1&sort=name&order=desc${cursor ? `&cursor=${cursor}` : ''}`)
        .set(owner.auth);
      seen.push(...names(page));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['zeta', 'c.txt', 'b.txt', 'A.txt']);
    for (const [sort, order] of [
      ['date', 'desc'],
      ['size', 'asc'],
    ]) {
      const walked: string[] = [];
      let next: string | null = null;
      do {
        const page: { body: { items: { name: string }[]; nextCursor: string | null } } = await stack.http
          .get(`/api/cloud/folders/${box.id}/contents`)
          .query({ limit: 1, sort, order, ...(next ? { cursor: next } : {}) })
          .set(owner.auth)
          .expect(200);
        walked.push(...names(page));
        next = page.body.nextCursor;
      } while (next);
      expect(walked).toEqual(
        names(await stack.http.get(`/api/cloud/folders/${box.id}/contents`).query({ sort, order }).set(owner.auth)),
      );
    }
    expect((await stack.http.get('/api/cloud/folders/contents').set(owner.auth)).body.folder).toBeNull();
    expectProblem(
      await stack.http.get(`/api/cloud/folders/${box.id}/contents?cursor=bm9wZQ`).set(owner.auth),
      400,
      'validation_failed',
    );
  });

  it('refuses a forged cursor of any listing with 400, whatever value it casts', async () => {
    const forged = (...values: string[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
    const id = '0190a000-0000-7000-8000-000000000000';
    const refused: [string, Record<string, string>][] = [
      ['/api/cloud/folders/contents', { sort: 'date', cursor: forged('false', 'notadate', id) }],
      ['/api/cloud/folders/contents', { sort: 'date', cursor: forged('false', '2026-02-30 10:00:00+00', id) }],
      ['/api/cloud/folders/contents', { sort: 'size', cursor: forged('true', '99999999999999999999', id) }],
      ['/api/cloud/folders/contents', { sort: 'name', cursor: forged('maybe', 'a', id) }],
      ['/api/cloud/folders/contents', { sort: 'name', cursor: forged('true', 'a', 'not-a-uuid') }],
      ['/api/cloud/folders/trash', { cursor: forged('x', id) }],
      ['/api/cloud/folders/shared-with-me', { cursor: forged('x', id) }],
      ['/api/cloud/folders/starred', { cursor: forged('a\u0000b', id) }],
      ['/api/cloud/folders/search', { q: 'a', cursor: forged('a', 'x') }],
    ];
    for (const [path, query] of refused)
      expectProblem(await stack.http.get(path).query(query).set(owner.auth), 400, 'validation_failed');
  });

  it('numbers a taken name of 255 characters within 255, a long extension included (upload and restore)', async () => {
    const dir = await mkdir(stack, owner, 'Long names');
    const longExt = `a.${'x'.repeat(253)}`;
    const longStem = `${'r'.repeat(251)}.pdf`;
    const got: string[] = [];
    for (const name of [longExt, longExt, longExt, longStem, longStem, longStem])
      got.push((await uploadFile(stack, owner, name, 'x', { folderId: dir.id })).name);
    expect(got.slice(1)).toEqual([
      `${longExt.slice(0, 251)} (2)`,
      `${longExt.slice(0, 251)} (3)`,
      longStem,
      `${'r'.repeat(247)} (2).pdf`,
      `${'r'.repeat(247)} (3).pdf`,
    ]);
    // A trashed one comes back numbered when its name was taken meanwhile.
    const gone = await uploadFile(stack, owner, `b.${'y'.repeat(253)}`, 'x', { folderId: dir.id });
    await stack.http.delete(`/api/cloud/files/${gone.id}`).set(owner.auth).expect(204);
    await uploadFile(stack, owner, gone.name, 'x', { folderId: dir.id });
    const back = await stack.http.post(`/api/cloud/files/${gone.id}/restore`).set(owner.auth).send();
    expect(back.status).toBe(200);
    expect(back.body.name).toBe(`${gone.name.slice(0, 251)} (2)`);
  });

  it('lists the files other members shared with the caller, each once, most recently shared first', async () => {
    // An organisation of its own: the other tests count this file's owner's trash and quota.
    const sharer = await createAccount(stack);
    const colleague = await addMember(stack, sharer);
    const first = await uploadFile(stack, sharer, 'shared-first.txt', '1');
    const second = await uploadFile(stack, sharer, 'shared-second.txt', '2');
    const revoked = await uploadFile(stack, sharer, 'shared-revoked.txt', '3');
    const share = (fileId: string, by: Account, memberIds: string[]) =>
      stack.http.post(`/api/cloud/files/${fileId}/share`).set(by.auth).send({ kind: 'members', memberIds }).expect(201);
    await share(first.id, sharer, [colleague.user.id]);
    await share(second.id, sharer, [colleague.user.id]);
    const gone = await share(revoked.id, sharer, [colleague.user.id]);
    await stack.http.delete(`/api/cloud/files/${revoked.id}/shares/${gone.body.id}`).set(sharer.auth).expect(204);
    await share(first.id, sharer, [colleague.user.id, sharer.user.id]);
    const sharedWith = (who: Account, query = '') =>
      stack.http.get(`/api/cloud/folders/shared-with-me${query}`).set(who.auth);
    expect(names(await sharedWith(colleague))).toEqual(['shared-first.txt', 'shared-second.txt']);
    // One's own shares are not "shared with me"; a page of one leads to the next.
    expect(names(await sharedWith(sharer))).toEqual([]);
    const page = await sharedWith(colleague, '?limit=1');
    expect(names(page)).toEqual(['shared-first.txt']);
    expect(names(await sharedWith(colleague, `?limit=1&cursor=${page.body.nextCursor}`))).toEqual([
      'shared-second.txt',
    ]);
    // A trashed file leaves the list; another organisation's member sees none of it; a foreign cursor is a 400.
    await stack.http.delete(`/api/cloud/files/${second.id}`).set(sharer.auth).expect(204);
    expect(names(await sharedWith(colleague))).toEqual(['shared-first.txt']);
    expect(names(await sharedWith(owner))).toEqual([]);
    expectProblem(await sharedWith(colleague, '?cursor=bm9wZQ'), 400, 'validation_failed');
  });

  it('searches by name and type, everywhere or within a folder; lists starred items', async () => {
    const proj = await mkdir(stack, owner, 'Project');
    const sub = await mkdir(stack, owner, 'Sub', proj.id);
    const plan = await uploadFile(stack, owner, 'Plan_final.pdf', '%PDF', {
      contentType: 'application/pdf',
      folderId: sub.id,
    });
    await uploadFile(stack, owner, 'plan-notes.txt', 'n');
    const everywhere = await stack.http.get('/api/cloud/folders/search?q=PLAN').set(owner.auth);
    expect(names(everywhere)).toEqual(['plan-notes.txt', 'Plan_final.pdf']);
    expect(names(await stack.http.get(`/api/cloud/folders/search?q=plan&folderId=${proj.id}`).set(owner.auth))).toEqual(
      ['Plan_final.pdf'],
    );
    expect(names(await stack.http.get('/api/cloud/folders/search?q=plan&type=pdf').set(owner.auth))).toEqual([
      'Plan_final.pdf',
    ]);
    expect(names(await stack.http.get('/api/cloud/folders/search?q=n_f').set(owner.auth))).toEqual(['Plan_final.pdf']);
    expect(names(await stack.http.get('/api/cloud/folders/search?type=folder&q=sub').set(owner.auth))).toEqual(['Sub']);
    expectProblem(
      await stack.http
        .get('/api/cloud/folders/search?q=plan&folderId=00000000-0000-7000-8000-000000000000')
        .set(owner.auth),
      404,
      'not_found',
    );

    const starred = await stack.http.post(`/api/cloud/files/${plan.id}/star`).set(owner.auth).send({ starred: true });
    expect(starred.body.starred).toBe(true);
    await stack.http.post(`/api/cloud/folders/${sub.id}/star`).set(owner.auth).send({ starred: true });
    expect(names(await stack.http.get('/api/cloud/folders/starred').set(owner.auth))).toEqual([
      'Plan_final.pdf',
      'Sub',
    ]);
    // Favourites are per member.
    const member = await addMember(stack, owner);
    expect(names(await stack.http.get('/api/cloud/folders/starred').set(member.auth))).toEqual([]);
    await stack.http.post(`/api/cloud/folders/${sub.id}/star`).set(owner.auth).send({ starred: false });
    expect(names(await stack.http.get('/api/cloud/folders/starred').set(owner.auth))).toEqual(['Plan_final.pdf']);
  });

  it('searches by owner, last change and size, combined with name and type, paging by cursor', async () => {
    const box = await mkdir(stack, owner, 'Filters');
    const member = await addMember(stack, owner);
    await uploadFile(stack, owner, 'report-small.txt', 'x'.repeat(10), { folderId: box.id });
    const big = await uploadFile(stack, owner, 'report-big.txt', 'x'.repeat(5000), { folderId: box.id });
    await uploadFile(stack, member, 'report-theirs.txt', 'x'.repeat(200), { folderId: box.id });
    await mkdir(stack, owner, 'report-folder', box.id);
    // The big one was last changed in January (what a file untouched since then looks like).
    await stack.services.orm.em
      .fork()
      .execute(`update cloud_nodes set updated_at = '2026-01-15T10:00:00Z' where id = ?`, [big.id]);
    const search = async (query: string, who: Account = owner) => {
      const res = await stack.http.get(`/api/cloud/folders/search?folderId=${box.id}&${query}`).set(who.auth);
      expect(res.status).toBe(200);
      return names(res);
    };
    expect(await search('q=report')).toEqual([
      'report-big.txt',
      'report-folder',
      'report-small.txt',
      'report-theirs.txt',
    ]);
    expect(await search(`ownerId=${member.user.id}`)).toEqual(['report-theirs.txt']);
    expect(await search(`q=report&ownerId=${owner.user.id}&type=text`)).toEqual(['report-big.txt', 'report-small.txt']);
    expect(await search('modifiedBefore=2026-02-01T00:00:00Z')).toEqual(['report-big.txt']);
    expect(await search('q=report&type=text&modifiedFrom=2026-02-01T00:00:00Z')).toEqual([
      'report-small.txt',
      'report-theirs.txt',
    ]);
    // A size bound means files only: the folder has no size of its own.
    expect(await search('minSize=100')).toEqual(['report-big.txt', 'report-theirs.txt']);
    expect(await search('minSize=10&maxSize=200')).toEqual(['report-small.txt', 'report-theirs.txt']);
    expect(await search('maxSize=0')).toEqual([]);
    // Every member sees the drive's items, whoever created them; a page at a time with the filters kept.
    expect(await search('q=report&minSize=1', member)).toEqual([
      'report-big.txt',
      'report-small.txt',
      'report-theirs.txt',
    ]);
    const first = await stack.http
      .get(`/api/cloud/folders/search?folderId=${box.id}&minSize=1&limit=2`)
      .set(owner.auth);
    expect(names(first)).toEqual(['report-big.txt', 'report-small.txt']);
    const rest = await stack.http
      .get(`/api/cloud/folders/search?folderId=${box.id}&minSize=1&limit=2&cursor=${first.body.nextCursor}`)
      .set(owner.auth);
    expect(names(rest)).toEqual(['report-theirs.txt']);
    expect(rest.body.nextCursor).toBeNull();
    // Reversed ranges and malformed bounds are the client's: 400, never an empty page or a 500.
    for (const [query, code] of [
      ['modifiedFrom=2026-03-01T00:00:00Z&modifiedBefore=2026-02-01T00:00:00Z', 'validation_failed'],
      ['minSize=10&maxSize=5', 'validation_failed'],
      ['minSize=-1', 'validation_failed'],
      ['minSize=ten', 'validation_failed'],
      ['modifiedFrom=yesterday', 'validation_failed'],
      ['ownerId=not-a-uuid', 'validation_failed'],
    ]) {
      const res = await stack.http.get(`/api/cloud/folders/search?${query}`).set(owner.auth);
      expectProblem(res, 400, code);
    }
  });

  it('renames and moves, refusing a taken name and a folder moved into its own subtree', async () => {
    const a = await mkdir(stack, owner, 'MoveA');
    const b = await mkdir(stack, owner, 'MoveB', a.id);
    const c = await mkdir(stack, owner, 'MoveC', b.id);
    const f = await uploadFile(stack, owner, 'report.txt', 'r', { folderId: a.id });
    await uploadFile(stack, owner, 'report.txt', 'r2', { folderId: b.id });
    const renamed = await stack.http
      .patch(`/api/cloud/files/${f.id}`)
      .set(owner.auth)
      .send({ name: 'Summary.txt', description: 'Q3' });
    expect(renamed.body).toMatchObject({ name: 'Summary.txt', description: 'Q3' });
    expect(
      (await stack.http.patch(`/api/cloud/files/${f.id}`).set(owner.auth).send({ description: null })).body.description,
    ).toBeNull();
    // Files and folders share one namespace per folder.
    expectProblem(
      await stack.http.patch(`/api/cloud/files/${f.id}`).set(owner.auth).send({ name: 'moveb' }),
      409,
      'name_taken',
    );
    await stack.http.patch(`/api/cloud/files/${f.id}`).set(owner.auth).send({ name: 'report.txt' });
    expectProblem(
      await stack.http.post(`/api/cloud/files/${f.id}/move`).set(owner.auth).send({ folderId: b.id }),
      409,
      'name_taken',
    );
    const moved = await stack.http.post(`/api/cloud/files/${f.id}/move`).set(owner.auth).send({ folderId: c.id });
    expect(moved.body).toMatchObject({ parentId: c.id });
    expect(
      (await stack.http.post(`/api/cloud/files/${f.id}/move`).set(owner.auth).send({ folderId: null })).body.parentId,
    ).toBeNull();

    for (const target of [a.id, c.id])
      expectProblem(
        await stack.http
          .post('/api/cloud/files/bulk-move')
          .set(owner.auth)
          .send({ folderIds: [a.id], folderId: target }),
        409,
        'folder_cycle',
      );
    // All or nothing: one unknown id moves nothing.
    const unknown = '01900000-0000-7000-8000-000000000000';
    expectProblem(
      await stack.http
        .post('/api/cloud/files/bulk-move')
        .set(owner.auth)
        .send({ fileIds: [f.id, unknown], folderId: a.id }),
      404,
      'not_found',
    );
    expect(
      (await stack.http.get(`/api/cloud/folders/${a.id}/contents`).set(owner.auth)).body.items.map(
        (i: { id: string }) => i.id,
      ),
    ).toEqual([b.id]);
    expect(
      (
        await stack.http
          .post('/api/cloud/files/bulk-move')
          .set(owner.auth)
          .send({ fileIds: [f.id], folderIds: [c.id], folderId: a.id })
      ).status,
    ).toBe(204);
    expect(names(await stack.http.get(`/api/cloud/folders/${a.id}/contents`).set(owner.auth))).toEqual([
      'MoveB',
      'MoveC',
      'report.txt',
    ]);
  });

  it('trashes a folder with its subtree, restores it, and purges the trash after retention (objects gone)', async () => {
    const top = await mkdir(stack, owner, 'Old');
    const inner = await mkdir(stack, owner, 'Inner', top.id);
    const f1 = await uploadFile(stack, owner, 'one.txt', '1111', { folderId: inner.id });
    const f2 = await uploadFile(stack, owner, 'two.txt', '22', { folderId: top.id });
    const used = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body.usedBytes;

    expect((await stack.http.delete(`/api/cloud/folders/${top.id}`).set(owner.auth)).status).toBe(204);
    expect((await stack.http.get(`/api/cloud/folders/${inner.id}/contents`).set(owner.auth)).status).toBe(404);
    const trash = await stack.http.get('/api/cloud/folders/trash').set(owner.auth);
    expect(trash.body.items.map((i: { id: string }) => i.id)).toEqual([top.id]);
    expect(trash.body.items[0].purgeAt).toBeDefined();
    expectProblem(
      await stack.http.post(`/api/cloud/files/${f1.id}/restore`).set(owner.auth).send(),
      409,
      'trashed_with_folder',
    );
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body).toMatchObject({
      usedBytes: used,
      trashBytes: 6,
    });

    // A new "Old" took the name meanwhile: the restored one is numbered.
    await mkdir(stack, owner, 'Old');
    const restored = await stack.http.post(`/api/cloud/folders/${top.id}/restore`).set(owner.auth).send();
    expect(restored.body).toMatchObject({ id: top.id, name: 'Old (2)', trashedAt: null });
    expect(names(await stack.http.get(`/api/cloud/folders/${inner.id}/contents`).set(owner.auth))).toEqual(['one.txt']);

    // Trashed again, then past retention: the purge deletes rows and objects and gives the bytes back.
    expect(
      (
        await stack.http
          .post('/api/cloud/files/bulk-delete')
          .set(owner.auth)
          .send({ folderIds: [top.id], fileIds: [f2.id] })
      ).status,
    ).toBe(204);
    const nodes = await stack.services.orm.em
      .fork()
      .find(CloudNode, { id: { $in: [f1.id, f2.id] } }, { filters: false });
    await stack.services.orm.em
      .fork()
      .nativeUpdate(
        CloudNode,
        { trashRootId: top.id },
        { trashedAt: new Date(Date.now() - 31 * 86_400_000) },
        { filters: false },
      );
    expect(await purgeExpiredTrash(stack.services)).toBe(1);
    for (const n of nodes) expect(await stack.services.storage.stat(n.objectKey!)).toBeNull();
    expect(
      await stack.services.orm.em
        .fork()
        .count(CloudNode, { id: { $in: [top.id, inner.id, f1.id, f2.id] } }, { filters: false }),
    ).toBe(0);
    expect((await stack.http.get('/api/cloud/quota').set(owner.auth)).body.usedBytes).toBe(used - 6);
    expectProblem(
      await stack.http.post(`/api/cloud/folders/${top.id}/restore`).set(owner.auth).send(),
      404,
      'not_found',
    );
  });

  it('purge and restore: a restore during a purge waits and finds nothing, a purge after a restore deletes nothing', async () => {
    const stored = (id: string) => stack.services.orm.em.fork().findOne(CloudNode, { id }, { filters: false });
    // The purge holds the rows while it deletes the objects: the restore waits for it, then answers 404.
    const gone = await uploadFile(stack, owner, 'gone.txt', 'gone');
    const key = (await stored(gone.id))!.objectKey!;
    await stack.http.delete(`/api/cloud/files/${gone.id}`).set(owner.auth).expect(204);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const remove = stack.services.storage.remove.bind(stack.services.storage);
    const removing = jest.spyOn(stack.services.storage, 'remove').mockImplementation(async (k) => {
      await gate;
      return remove(k);
    });
    try {
      const purging = purgeNodes(stack.services, owner.tenantId, { trashRootIds: [gone.id] });
      await eventually(() => removing.mock.calls.length > 0 || null);
      const restoring = stack.http
        .post(`/api/cloud/files/${gone.id}/restore`)
        .set(owner.auth)
        .send()
        .then((res) => res);
      // The restore waits for the purge's row locks before the purge may go on.
      await lockWaiters(stack, 1);
      release();
      expect(await purging).toEqual({ files: 1, folders: 0, bytes: 4 });
      expectProblem(await restoring, 404, 'not_found');
    } finally {
      removing.mockRestore();
    }
    expect(await stored(gone.id)).toBeNull();
    expect(await stack.services.storage.stat(key)).toBeNull();

    // Restored after the purge selected it (or restored and trashed again within retention): nothing is deleted.
    const kept = await uploadFile(stack, owner, 'kept.txt', 'kept');
    await stack.http.delete(`/api/cloud/files/${kept.id}`).set(owner.auth).expect(204);
    await stack.http.post(`/api/cloud/files/${kept.id}/restore`).set(owner.auth).send().expect(200);
    expect(await purgeNodes(stack.services, owner.tenantId, { trashRootIds: [kept.id] })).toEqual({
      files: 0,
      folders: 0,
      bytes: 0,
    });
    await stack.http.delete(`/api/cloud/files/${kept.id}`).set(owner.auth).expect(204);
    expect(
      await purgeNodes(stack.services, owner.tenantId, {
        trashRootIds: [kept.id],
        trashedBefore: new Date(Date.now() - 86_400_000),
      }),
    ).toEqual({ files: 0, folders: 0, bytes: 0 });
    await stack.http.post(`/api/cloud/files/${kept.id}/restore`).set(owner.auth).send().expect(200);
    expect((await download(stack, owner, kept.id)).bytes.toString()).toBe('kept');
  });

  it('restores a file to the root when its folder is gone', async () => {
    const dir = await mkdir(stack, owner, 'Temp');
    const f = await uploadFile(stack, owner, 'orphan.txt', 'o', { folderId: dir.id });
    await stack.http.delete(`/api/cloud/files/${f.id}`).set(owner.auth);
    await stack.http.delete(`/api/cloud/folders/${dir.id}`).set(owner.auth);
    const back = await stack.http.post(`/api/cloud/files/${f.id}/restore`).set(owner.auth).send();
    expect(back.body).toMatchObject({ parentId: null, name: 'orphan.txt' });
    expect((await download(stack, owner, f.id)).bytes.toString()).toBe('o');
  });

  it('puts an upload whose folder was trashed meanwhile at the root', async () => {
    const dir = await mkdir(stack, owner, 'Vanishing');
    const ticket = await uploadUrl(stack, owner, {
      name: 'late.txt',
      size: 4,
      contentType: 'text/plain',
      folderId: dir.id,
    });
    await stack.http.delete(`/api/cloud/folders/${dir.id}`).set(owner.auth);
    await putBytes(ticket, 'late');
    const confirmed = await stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: ticket.uploadId });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body).toMatchObject({ name: 'late.txt', parentId: null });
  });

  it('creates empty office documents as files of the drive', async () => {
    const dir = await mkdir(stack, owner, 'Office');
    const doc = await stack.http.post('/api/cloud/documents').set(owner.auth).send({ type: 'doc', folderId: dir.id });
    expect(doc.status).toBe(201);
    expect(doc.body).toMatchObject({
      name: 'Untitled document.odt',
      contentType: 'application/vnd.oasis.opendocument.text',
      category: 'document',
      parentId: dir.id,
    });
    const sheet = await stack.http.post('/api/cloud/documents').set(owner.auth).send({ type: 'sheet', name: 'Budget' });
    expect(sheet.body).toMatchObject({ name: 'Budget.ods', category: 'spreadsheet' });
    const again = await stack.http
      .post('/api/cloud/documents')
      .set(owner.auth)
      .send({ type: 'slides', name: 'Deck.odp' });
    const twice = await stack.http.post('/api/cloud/documents').set(owner.auth).send({ type: 'slides', name: 'Deck' });
    expect([again.body.name, twice.body.name]).toEqual(['Deck.odp', 'Deck (2).odp']);
    const bytes = (await download(stack, owner, doc.body.id)).bytes;
    // A zip whose first entry is the uncompressed mimetype, as ODF requires.
    expect(bytes.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(bytes.subarray(30, 38).toString()).toBe('mimetype');
    expect(bytes.subarray(38, 38 + 39).toString()).toBe('application/vnd.oasis.opendocument.text');
    expect(doc.body.size).toBe(bytes.length);
  });
});
