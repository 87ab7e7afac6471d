import { randomBytes } from 'node:crypto';
import { putBytes, setTierQuota } from '../../support/cloud';
import { addMember, createAccount, type Account } from '../../support/factories';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

type Ticket = { uploadId: string; url: string; headers: Record<string, string> };

describe('core: media library on the cloud storage', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'pro' });
  });
  afterAll(() => stack.close());

  const quota = async (who: Account = owner) =>
    (await stack.http.get('/api/cloud/quota').set(who.auth)).body as {
      usedBytes: number;
      reservedBytes: number;
      quotaBytes: number;
    };
  const upload = async (
    who: Account,
    route: string,
    name: string,
    bytes: Buffer,
    contentType: string,
    alt?: string,
  ) => {
    const ticket = await stack.http.post(route).set(who.auth).send({ name, size: bytes.length, contentType });
    expect(ticket.status).toBe(201);
    expect(await putBytes(ticket.body as Ticket, bytes)).toBeLessThan(300);
    const res = await stack.http
      .post('/api/assets')
      .set(who.auth)
      .send({ uploadId: ticket.body.uploadId, ...(alt ? { alt } : {}) });
    expect(res.status).toBe(201);
    return res.body as { id: string; kind: string; url: string; size: number };
  };

  it('uploads an image with the signed upload of the cloud, counted in the quota', async () => {
    const bytes = randomBytes(20_000);
    const ticket = await stack.http
      .post('/api/images/upload-url')
      .set(owner.auth)
      .send({ name: 'logo.png', size: bytes.length, contentType: 'image/png' });
    expect(ticket.status).toBe(201);
    expect(ticket.body).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/png' } });
    expect(await quota()).toMatchObject({ usedBytes: 0, reservedBytes: bytes.length });
    expectProblem(
      await stack.http.post('/api/assets').set(owner.auth).send({ uploadId: ticket.body.uploadId }),
      409,
      'upload_incomplete',
    );
    await putBytes(ticket.body, bytes);
    const made = await stack.http
      .post('/api/assets')
      .set(owner.auth)
      .send({ uploadId: ticket.body.uploadId, alt: 'Our logo' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      id: ticket.body.uploadId,
      kind: 'image',
      name: 'logo.png',
      size: bytes.length,
      contentType: 'image/png',
      alt: 'Our logo',
      createdBy: owner.user.id,
    });
    expect(await quota()).toMatchObject({ usedBytes: bytes.length, reservedBytes: 0 });
    // Confirming again answers the entry; the bytes are served back.
    expect((await stack.http.post('/api/assets').set(owner.auth).send({ uploadId: ticket.body.uploadId })).status).toBe(
      200,
    );
    const got = await fetch(made.body.url);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    // Not a file of the drive.
    const drive = (await stack.http.get('/api/cloud/folders/contents').set(owner.auth)).body;
    expect(JSON.stringify(drive)).not.toContain(made.body.id);

    // Deleting frees the quota at once.
    expect((await stack.http.delete(`/api/assets/${made.body.id}`).set(owner.auth)).status).toBe(204);
    expect(await quota()).toMatchObject({ usedBytes: 0 });
    expectProblem(await stack.http.get(`/api/assets/${made.body.id}`).set(owner.auth), 404, 'not_found');
  });

  it('refuses what the quota cannot hold, and non-images on the image route', async () => {
    const small = await createAccount(stack, { tier: 'starter' });
    await setTierQuota(stack, 'starter', 1000, [small.tenantId]);
    const body = { name: 'big.jpg', size: 1001, contentType: 'image/jpeg' };
    expectProblem(await stack.http.post('/api/images/upload-url').set(small.auth).send(body), 409, 'quota_exceeded');
    expectProblem(
      await stack.http
        .post('/api/assets/upload-url')
        .set(small.auth)
        .send({ ...body, contentType: 'application/pdf' }),
      409,
      'quota_exceeded',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/images/upload-url')
        .set(owner.auth)
        .send({ name: 'x.svg', size: 10, contentType: 'image/svg+xml' }),
      'contentType',
    );
    expectFieldErrors(
      await stack.http.post('/api/images/upload-url').set(owner.auth).send({ name: '', size: -1, contentType: 'png' }),
      'name',
      'size',
      'contentType',
    );
    expectFieldErrors(
      await stack.http.post('/api/assets').set(owner.auth).send({ uploadId: 'x', alt: 5 }),
      'uploadId',
      'alt',
    );
    expectFieldErrors(await stack.http.get('/api/assets?kind=video&limit=0').set(owner.auth), 'kind', 'limit');
  });

  it('lists, edits and isolates the library', async () => {
    const img = await upload(owner, '/api/images/upload-url', 'a.png', randomBytes(100), 'image/png');
    const doc = await upload(owner, '/api/assets/upload-url', 'terms.pdf', randomBytes(200), 'application/pdf');
    const all = (await stack.http.get('/api/assets').set(owner.auth)).body.items.map((a: { id: string }) => a.id);
    expect(all.slice(0, 2)).toEqual([doc.id, img.id]);
    expect(
      (await stack.http.get('/api/assets?kind=image').set(owner.auth)).body.items.map((a: { id: string }) => a.id),
    ).toEqual([img.id]);
    const page = (await stack.http.get('/api/assets?limit=1').set(owner.auth)).body;
    expect(page.nextCursor).toBe(doc.id);
    const edited = await stack.http.patch(`/api/assets/${img.id}`).set(owner.auth).send({ name: 'b/c.png', alt: null });
    expect(edited.body).toMatchObject({ name: 'b_c.png', alt: null });

    // A drive upload cannot become an asset.
    const driveTicket = (
      await stack.http
        .post('/api/cloud/files/upload-url')
        .set(owner.auth)
        .send({ name: 'd.txt', size: 1, contentType: 'text/plain' })
    ).body;
    expectProblem(
      await stack.http.post('/api/assets').set(owner.auth).send({ uploadId: driveTicket.uploadId }),
      404,
      'not_found',
    );

    // A member may read, another organisation sees nothing.
    const member = await addMember(stack, owner, 'member');
    expect((await stack.http.get(`/api/assets/${img.id}`).set(member.auth)).status).toBe(200);
    const other = await createAccount(stack, { tier: 'pro' });
    expect((await stack.http.get('/api/assets').set(other.auth)).body.items).toEqual([]);
    expectProblem(await stack.http.get(`/api/assets/${img.id}`).set(other.auth), 404, 'not_found');
    expectProblem(await stack.http.patch(`/api/assets/${img.id}`).set(other.auth).send({ alt: 'x' }), 404, 'not_found');
    expectProblem(await stack.http.delete(`/api/assets/${img.id}`).set(other.auth), 404, 'not_found');
    const ticket = (
      await stack.http
        .post('/api/images/upload-url')
        .set(owner.auth)
        .send({ name: 'z.png', size: 3, contentType: 'image/png' })
    ).body;
    await putBytes(ticket, 'abc');
    expectProblem(
      await stack.http.post('/api/assets').set(other.auth).send({ uploadId: ticket.uploadId }),
      404,
      'not_found',
    );
  });
});
