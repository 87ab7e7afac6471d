import { PDFDocument, rgb } from 'pdf-lib';
import sharp from 'sharp';
import { queueMissingPreviews } from '../../domain/cloud/queueMissingPreviews';
import { purgeNodes } from '../../domain/cloud/purge';
import { previewJobId } from '../../domain/cloud/requestPreview';
import { cloudPreviewsQueue } from '../../queues/cloud';
import { putBytes, uploadFile } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

/** Thumbnails of drive images: made by the worker after each upload, served through signed addresses, gone with the file. */
describe('cloud previews', () => {
  let stack: TestStack;
  let owner: Account;
  let stranger: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: ['cloud-previews'] });
    [owner, stranger] = await Promise.all([createAccount(stack), createAccount(stack)]);
  });
  afterAll(() => stack.close());

  const previewUrl = (fileId: string, who = owner) =>
    stack.http.get(`/api/cloud/files/${fileId}/preview-url`).set(who.auth);
  const ready = (fileId: string) =>
    eventually(
      async () => {
        const res = await previewUrl(fileId);
        return res.status === 200 ? (res.body as { url: string; width: number; height: number }) : null;
      },
      { what: 'the preview' },
    );
  const state = (fileId: string) =>
    eventually(
      async () => {
        const [row] = await stack.services.orm.em
          .fork()
          .execute<{ state: string; object_key: string | null }[]>(
            `select state, object_key from cloud_previews where node_id = ?`,
            [fileId],
          );
        return row;
      },
      { what: 'a preview recorded' },
    );

  it('makes a WebP thumbnail after the upload, lists hasPreview, serves it through a signed address', async () => {
    const file = await uploadFile(stack, owner, 'wide.png', await png(1600, 900), { contentType: 'image/png' });
    const preview = await ready(file.id);
    expect(preview).toMatchObject({ width: 512, height: 288 });
    const listed = await stack.http.get('/api/cloud/folders/contents').set(owner.auth);
    expect(listed.body.items.find((i: { id: string }) => i.id === file.id)).toMatchObject({ hasPreview: true });

    const redirect = await fetch(preview.url, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const bytes = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 512, height: 288 });

    // A small image is never enlarged; another organisation sees no file; a forged address is refused.
    const small = await uploadFile(stack, owner, 'tiny.png', await png(40, 20), { contentType: 'image/png' });
    expect(await ready(small.id)).toMatchObject({ width: 40, height: 20 });
    expectProblem(await previewUrl(file.id, stranger), 404, 'not_found');
    const forged = await fetch(`${stack.url}/api/cloud/files/${file.id}/preview?t=1.abc`, { redirect: 'manual' });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { code: string }).code).toBe('preview_token_invalid');
    // A download token is not a preview token.
    const dl = (await stack.http.get(`/api/cloud/files/${file.id}/download-url`).set(owner.auth)).body as {
      url: string;
    };
    const t = new URL(dl.url).searchParams.get('t')!;
    expect((await fetch(`${stack.url}/api/cloud/files/${file.id}/preview?t=${t}`, { redirect: 'manual' })).status).toBe(
      403,
    );
  });

  it("makes a PDF's thumbnail from its first page; a corrupt PDF is recorded failed", async () => {
    // An A4 page, red on its lower half; a second page the thumbnail does not show.
    const doc = await PDFDocument.create();
    doc.addPage([595, 842]).drawRectangle({ x: 0, y: 0, width: 595, height: 421, color: rgb(1, 0, 0) });
    doc.addPage([842, 595]);
    const file = await uploadFile(stack, owner, 'quote.pdf', Buffer.from(await doc.save()), {
      contentType: 'application/pdf',
    });
    const preview = await ready(file.id);
    expect(preview.height).toBe(512);
    expect(preview.width).toBeGreaterThan(355);
    expect(preview.width).toBeLessThan(370);
    const redirect = await fetch(preview.url, { redirect: 'manual' });
    const bytes = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels).subarray(0, 3)];
    expect(pixel(10, 10)).toEqual([255, 255, 255]);
    const [r, g, b] = pixel(10, 500);
    expect(r).toBeGreaterThan(240);
    expect(g + b).toBeLessThan(30);

    const corrupt = await uploadFile(stack, owner, 'torn.pdf', '%PDF-1.7\n1 0 obj <<', {
      contentType: 'application/pdf',
    });
    expect(await state(corrupt.id)).toMatchObject({ state: 'failed', object_key: null });
  });

  it('records what it cannot decode (no retry), keeps the file whole, and has no preview for a non-image', async () => {
    const broken = await uploadFile(stack, owner, 'broken.png', Buffer.from('not a png at all'), {
      contentType: 'image/png',
    });
    expect(await state(broken.id)).toMatchObject({ state: 'failed', object_key: null });
    expectProblem(await previewUrl(broken.id), 404, 'not_found');
    const listed = await stack.http.get('/api/cloud/folders/contents').set(owner.auth);
    expect(listed.body.items.find((i: { id: string }) => i.id === broken.id)).toMatchObject({ hasPreview: false });
    const svg = await uploadFile(
      stack,
      owner,
      'logo.svg',
      '<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>',
      {
        contentType: 'image/svg+xml',
      },
    );
    expect(await state(svg.id)).toMatchObject({ state: 'failed' });
    const text = await uploadFile(stack, owner, 'notes.txt', 'hello');
    expectProblem(await previewUrl(text.id), 404, 'not_found');
  });

  it('makes a new thumbnail for an overwrite (the old one stops being served), and deletes it with the file', async () => {
    const file = await uploadFile(stack, owner, 'photo.png', await png(1000, 1000), { contentType: 'image/png' });
    const first = await ready(file.id);
    expect(first).toMatchObject({ width: 512, height: 512 });
    const firstKey = (await state(file.id)).object_key!;

    const bytes = await png(300, 600);
    const ticket = await stack.http
      .post(`/api/cloud/files/${file.id}/upload-url`)
      .set(owner.auth)
      .send({ size: bytes.length, contentType: 'image/png' });
    expect(ticket.status).toBe(201);
    expect(await putBytes(ticket.body, bytes)).toBeLessThan(300);
    await stack.http
      .post('/api/cloud/files/upload-confirm')
      .set(owner.auth)
      .send({ uploadId: ticket.body.uploadId })
      .expect(200);
    const second = await eventually(
      async () => {
        const res = await previewUrl(file.id);
        const renewed = res.status === 200 && res.body.height === 512 && res.body.width === 256;
        return renewed ? (res.body as { url: string }) : null;
      },
      { what: 'the new preview' },
    );
    expect(second).toMatchObject({ width: 256, height: 512 });
    const secondKey = (await state(file.id)).object_key!;
    expect(secondKey).not.toBe(firstKey);
    expect(await stack.services.storage.stat(firstKey)).toBeNull();

    await stack.http.delete(`/api/cloud/files/${file.id}`).set(owner.auth).expect(204);
    expect((await fetch(second.url, { redirect: 'manual' })).status).toBe(404);
    await purgeNodes(stack.services, owner.tenantId, { ids: [file.id] });
    expect(await stack.services.storage.stat(secondKey)).toBeNull();
  });

  it('queues from the sweep the previews an upload path did not (a job lost before it was queued)', async () => {
    const file = await uploadFile(stack, owner, 'missed.png', await png(64, 64), { contentType: 'image/png' });
    await ready(file.id);
    // As if the job had never run: no preview row, no job in the queue.
    const em = stack.services.orm.em.fork();
    const [node] = await em.execute<{ object_key: string }[]>(`select object_key from cloud_nodes where id = ?`, [
      file.id,
    ]);
    await em.execute(`delete from cloud_previews where node_id = ?`, [file.id]);
    await (
      await stack.services.queues.get(cloudPreviewsQueue).getJob(previewJobId(file.id, node.object_key))
    )?.remove();
    expect(await queueMissingPreviews(stack.services, Date.now() + 120_000)).toBeGreaterThanOrEqual(1);
    expect(await ready(file.id)).toMatchObject({ width: 64, height: 64 });
  });
});
