import { createAccount } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

describe('Bull dashboard at /admin/queues', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('refuses a visitor without a token', async () => {
    const res = await stack.http.get('/admin/queues');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'token_missing' });
  });

  it('refuses a user who is not a platform administrator', async () => {
    const user = await createAccount(stack);
    const res = await stack.http.get('/admin/queues').set(user.auth);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'platform_admin_required' });
  });

  it('lets a platform administrator in with ?token=, then by its scoped cookie', async () => {
    const admin = await createAccount(stack, { platformAdmin: true });
    const first = await stack.http.get(`/admin/queues?token=${admin.tokens.accessToken}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/admin/queues');
    const cookie = first.headers['set-cookie'][0];
    expect(cookie).toMatch(/^queue_board=.+; Max-Age=3600; Path=\/admin\/queues; Expires=.+; HttpOnly; SameSite=Strict/);

    const page = await stack.http.get('/admin/queues').set('Cookie', cookie.split(';')[0]);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html/i);
    const api = await stack.http.get('/admin/queues/api/queues').set('Cookie', cookie.split(';')[0]);
    expect(api.status).toBe(200);
    expect(api.body.queues.map((q: { name: string }) => q.name)).toEqual(expect.arrayContaining(['mail', 'broadcast']));

    const forged = await stack.http.get('/admin/queues').set('Cookie', cookie.split(';')[0].replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    expect(forged.status).toBe(401);
  });
});
