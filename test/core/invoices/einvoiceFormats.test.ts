import { einvoiceQueue } from '../../../queues/einvoice';
import { finishedJob } from '../../support/billing';
import { fakePlatform, platformEnv } from '../../support/einvoicePlatform';
import { startStack, type TestStack } from '../../support/stack';
import { customerOf, invoicingOrg, issued } from './support';

/** The platform gets documents in the syntax it takes (EINVOICE_PLATFORM_FORMAT). */
describe.each([
  ['factur-x', 'application/pdf', null],
  ['cii', 'application/xml', 'factur-x.xml'],
  ['ubl', 'application/xml', 'ubl.xml'],
] as const)('e-invoice submission in %s', (format, mimeType, rendered) => {
  let stack: TestStack;
  const platform = fakePlatform({ format });
  beforeAll(async () => {
    const url = await platform.start();
    stack = await startStack({
      workers: ['einvoice'],
      env: {
        ...platformEnv(url),
        EINVOICE_PLATFORM_FORMAT: format,
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await platform.close();
  });

  it(`sends the ${format} document, byte for byte what the suite renders`, async () => {
    const org = await invoicingOrg(stack);
    const inv = await issued(stack, org, (await customerOf(stack, org)).id);
    expect((await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth)).status).toBe(202);
    expect((await finishedJob(stack, einvoiceQueue, `einvoice.submit.${inv.id}`)).returnvalue).toEqual({
      outcome: 'submitted',
    });
    const [post] = platform.posts.filter((p) => p.body.number === inv.number);
    expect(post.body).toMatchObject({ syntax: format, mimeType });
    const bytes = Buffer.from(String(post.body.document), 'base64');
    if (rendered) {
      const xml = (await stack.http.get(`/api/invoices/${inv.id}/einvoice/${rendered}`).set(org.auth)).text;
      expect(bytes.toString('utf8')).toBe(xml);
      expect(post.body.fileName).toBe(`${inv.number}.${format}.xml`);
    } else {
      const pdf = await stack.http
        .get(`/api/invoices/${inv.id}/pdf`)
        .set(org.auth)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect(bytes.length).toBe((pdf.body as Buffer).length);
      expect(post.body.fileName).toBe(`${inv.number}.pdf`);
    }
  });
});

it('a platform taking another syntax refuses the document: rejected, not retried', async () => {
  const platform = fakePlatform({ format: 'ubl' });
  const url = await platform.start();
  const stack = await startStack({
    workers: ['einvoice'],
    env: { EINVOICE_PLATFORM_URL: url, EINVOICE_PLATFORM_TOKEN: 'platform-token', EINVOICE_PLATFORM_FORMAT: 'cii' },
  });
  try {
    const org = await invoicingOrg(stack);
    const inv = await issued(stack, org, (await customerOf(stack, org)).id);
    expect((await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth)).status).toBe(202);
    expect((await finishedJob(stack, einvoiceQueue, `einvoice.submit.${inv.id}`)).attemptsMade).toBe(1);
    const state = (await stack.http.get(`/api/invoices/${inv.id}/einvoice`).set(org.auth)).body;
    expect(state).toMatchObject({ status: 'rejected', lastError: expect.stringContaining('415') });
  } finally {
    await stack.close();
    await platform.close();
  }
});
