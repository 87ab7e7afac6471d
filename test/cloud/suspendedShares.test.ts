import { uploadFile } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

/**
 * A suspended organisation gets no module (loadEntitlements), and its public surfaces (public knowledge base,
 * storefront) answer 404; so do its cloud share links and inline addresses (regression: they kept handing out its files).
 */
describe("a suspended organisation's cloud links", () => {
  let stack: TestStack;
  let owner: Account;
  let admin: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: ['quota'] });
    owner = await createAccount(stack);
    admin = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(() => stack.close());

  it('stops serving share links and inline addresses once the organisation is suspended', async () => {
    const file = await uploadFile(stack, owner, 'contract.pdf', 'confidential bytes', {
      contentType: 'application/pdf',
    });
    const share = await stack.http.post(`/api/cloud/files/${file.id}/share`).set(owner.auth).send({ kind: 'link' });
    expect(share.status).toBe(201);
    const token = share.body.url.split('/').pop();
    const { inlineUrl } = (await stack.http.get(`/api/cloud/files/${file.id}/download-url`).set(owner.auth)).body;
    const t = new URL(inlineUrl).searchParams.get('t')!;
    expect((await stack.http.post(`/api/cloud/shared/${token}`).send({})).status).toBe(200);

    const suspended = await stack.http
      .post(`/admin/organizations/${owner.tenantId}/suspend`)
      .set(admin.auth)
      .send({ reason: 'unpaid invoices' });
    expect(suspended.status).toBe(200);
    // The organisation's own members are locked out of cloud ...
    const own = await stack.http.get(`/api/cloud/files/${file.id}/download-url`).set(owner.auth);
    expect(own.status).toBe(403);
    expect(own.body.code).toBe('organization_suspended');

    // ... and so is anyone holding a link.
    const opened = await stack.http.post(`/api/cloud/shared/${token}`).send({});
    const inline = await stack.http.get(`/api/cloud/files/${file.id}/inline?t=${encodeURIComponent(t)}`);
    expect({ share: opened.status, inline: inline.status }).toEqual({ share: 404, inline: 404 });
  });
});
