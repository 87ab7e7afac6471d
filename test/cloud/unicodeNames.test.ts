import { putBytes, uploadUrl } from '../support/cloud';
import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

/**
 * freeName (domain/cloud/freeName.ts) lets PostgreSQL compare names with lower() on both sides, like the unique index:
 * JavaScript's toLowerCase() differs for "İ" (U+0130) and a final "Σ", where a taken name looked free.
 */
describe('cloud: taken names with non-ASCII capitals', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'pro' });
  });
  afterAll(() => stack.close());

  it.each(['İzmir', 'ΦΑΚΕΛΟΣ'])('numbers a second folder "%s" like any taken name', async (name) => {
    const first = await stack.http.post('/api/cloud/folders').set(owner.auth).send({ name });
    expect(first.status).toBe(201);
    const second = await stack.http.post('/api/cloud/folders').set(owner.auth).send({ name });
    expect({ status: second.status, name: second.body.name }).toEqual({ status: 201, name: `${name} (2)` });
  });

  it('numbers a second upload "İstanbul.pdf" in the same folder, and releases its reservation', async () => {
    const upload = async () => {
      const ticket = await uploadUrl(stack, owner, { name: 'İstanbul.pdf', size: 3, contentType: 'application/pdf' });
      expect(await putBytes(ticket, 'pdf')).toBeLessThan(300);
      return stack.http.post('/api/cloud/files/upload-confirm').set(owner.auth).send({ uploadId: ticket.uploadId });
    };
    expect((await upload()).status).toBe(201);
    const second = await upload();
    const quota = (await stack.http.get('/api/cloud/quota').set(owner.auth)).body;
    expect({ status: second.status, name: second.body.name, reservedBytes: quota.reservedBytes }).toEqual({
      status: 201,
      name: 'İstanbul (2).pdf',
      reservedBytes: 0,
    });
  });

  it('numbers past a batch of taken names, names with LIKE wildcards and quotes included', async () => {
    const parent = (await stack.http.post('/api/cloud/folders').set(owner.auth).send({ name: 'Many' })).body;
    const name = 'a_%"\'(,{b}';
    const made: string[] = [];
    for (let i = 0; i < 53; i++)
      made.push(
        (await stack.http.post('/api/cloud/folders').set(owner.auth).send({ name, parentId: parent.id })).body.name,
      );
    expect(made.slice(0, 3)).toEqual([name, `${name} (2)`, `${name} (3)`]);
    expect(made.slice(-2)).toEqual([`${name} (52)`, `${name} (53)`]);
  });
});
