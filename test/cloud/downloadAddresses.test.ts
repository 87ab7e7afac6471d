import { purgeNodes } from '../../domain/cloud/purge';
import { uploadFile } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { s3Env, startS3, type S3Server } from '../support/s3';
import { startStack, type TestStack } from '../support/stack';

/**
 * Every download address of the drive answers 404 as soon as its file is trashed, purged or its organisation
 * suspended, as inline addresses do (they used to be presigned storage addresses serving the bytes until they
 * expired), and a share link's download address is opaque: nothing an anonymous holder sees names the tenant.
 */
describe.each(['local', 's3'] as const)('cloud download addresses (%s storage)', (driver) => {
  let s3: S3Server | null = null;
  let stack: TestStack;
  let owner: Account;
  let admin: Account;
  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3();
    stack = await startStack({ workers: false, env: s3Env(s3, 'cloud-addresses') });
    await stack.services.storage.ensureBucket();
    owner = await createAccount(stack);
    admin = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(async () => {
    await stack?.close();
    await s3?.close();
  });

  /** Fetches an address as a browser would (following redirects): its status and body. */
  const fetched = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()).toString() };
  };
  const addresses = async (id: string): Promise<Record<string, string>> => {
    const download = await stack.http.get(`/api/cloud/files/${id}/download-url`).set(owner.auth);
    const tenant = await stack.http.get(`/api/cloud/files/${id}/tenant-download-url`).set(owner.auth);
    expect([download.status, tenant.status]).toEqual([200, 200]);
    return { download: download.body.url, inline: download.body.inlineUrl, tenant: tenant.body.url };
  };
  const statuses = async (urls: Record<string, string>) =>
    Object.fromEntries(
      await Promise.all(Object.entries(urls).map(async ([name, url]) => [name, (await fetched(url)).status])),
    );

  it('stops serving a file from every address once it is trashed or purged, and again after a restore', async () => {
    const file = await uploadFile(stack, owner, 'report.txt', 'quarterly figures');
    const urls = await addresses(file.id);
    for (const url of Object.values(urls))
      expect(await fetched(url)).toEqual({ status: 200, body: 'quarterly figures' });

    expect((await stack.http.delete(`/api/cloud/files/${file.id}`).set(owner.auth)).status).toBe(204);
    expect(await statuses(urls)).toEqual({ download: 404, inline: 404, tenant: 404 });
    expect((await stack.http.post(`/api/cloud/files/${file.id}/restore`).set(owner.auth)).status).toBe(200);
    expect(await statuses(urls)).toEqual({ download: 200, inline: 200, tenant: 200 });

    await stack.http.delete(`/api/cloud/files/${file.id}`).set(owner.auth);
    await purgeNodes(stack.services, owner.tenantId, { ids: [file.id] });
    expect(await statuses(urls)).toEqual({ download: 404, inline: 404, tenant: 404 });
  });

  it('serves a share link through an opaque address, which stops at once when the file is trashed', async () => {
    const file = await uploadFile(stack, owner, 'brochure.txt', 'public brochure');
    const share = await stack.http
      .post(`/api/cloud/files/${file.id}/share`)
      .set(owner.auth)
      .send({ kind: 'link', password: 'open sesame' });
    const token = (share.body.url as string).split('/').pop();
    const opened = await stack.http.post(`/api/cloud/shared/${token}`).send({ password: 'open sesame' });
    expect(opened.status).toBe(200);
    expect(JSON.stringify(opened.body)).not.toContain(owner.tenantId);
    // The bytes come from that address itself: no redirect to a storage key (which names the tenant).
    const res = await fetch(opened.body.url, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(JSON.stringify([...res.headers])).not.toContain(owner.tenantId);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="brochure.txt"/);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('public brochure');
    // Its signature is the proof the password was given: without it, or altered, nothing.
    const url = new URL(opened.body.url);
    expectProblem(await stack.http.get(url.pathname), 403, 'download_token_invalid');
    url.searchParams.set('t', `${Math.floor(Date.now() / 1000) + 600}.${'A'.repeat(43)}`);
    expectProblem(await stack.http.get(url.pathname + url.search), 403, 'download_token_invalid');

    expect((await stack.http.delete(`/api/cloud/files/${file.id}`).set(owner.auth)).status).toBe(204);
    expect((await fetched(opened.body.url)).status).toBe(404);
    await stack.http.post(`/api/cloud/files/${file.id}/restore`).set(owner.auth);
    expect((await fetched(opened.body.url)).status).toBe(200);
    await stack.http.delete(`/api/cloud/files/${file.id}/shares/${share.body.id}`).set(owner.auth);
    expect((await fetched(opened.body.url)).status).toBe(404);
  });

  it('stops serving every address of a suspended organisation at once', async () => {
    const own = await createAccount(stack);
    const file = await uploadFile(stack, own, 'contract.txt', 'confidential');
    const download = await stack.http.get(`/api/cloud/files/${file.id}/download-url`).set(own.auth);
    const tenant = await stack.http.get(`/api/cloud/files/${file.id}/tenant-download-url`).set(own.auth);
    const share = await stack.http.post(`/api/cloud/files/${file.id}/share`).set(own.auth).send({ kind: 'link' });
    const opened = await stack.http.post(`/api/cloud/shared/${(share.body.url as string).split('/').pop()}`).send({});
    const urls = {
      download: download.body.url,
      inline: download.body.inlineUrl,
      tenant: tenant.body.url,
      share: opened.body.url,
    };
    expect(await statuses(urls)).toEqual({ download: 200, inline: 200, tenant: 200, share: 200 });
    expect(
      (
        await stack.http
          .post(`/admin/organizations/${own.tenantId}/suspend`)
          .set(admin.auth)
          .send({ reason: 'unpaid invoices' })
      ).status,
    ).toBe(200);
    expect(await statuses(urls)).toEqual({ download: 404, inline: 404, tenant: 404, share: 404 });
  });
});
