import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

describe('Bull dashboard at /admin/queues', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  /** Opens the dashboard with ?token= and returns its cookie (name=value). */
  async function open(account: Account): Promise<string> {
    const first = await stack.http.get(`/admin/queues?token=${account.tokens.accessToken}`);
    expect(first.status).toBe(303);
    return first.headers['set-cookie'][0].split(';')[0];
  }
  const page = (cookie: string) => stack.http.get('/admin/queues').set('Cookie', cookie);
  const api = (cookie: string) => stack.http.get('/admin/queues/api/queues').set('Cookie', cookie);
  const pause = (cookie: string) => stack.http.put('/admin/queues/api/queues/mail/pause').set('Cookie', cookie);

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

  it('lets a platform administrator in with ?token=, then by its scoped cookie, which expires with the token', async () => {
    const admin = await createAccount(stack, { platformAdmin: true });
    const first = await stack.http.get(`/admin/queues?token=${admin.tokens.accessToken}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/admin/queues');
    const setCookie = first.headers['set-cookie'][0];
    expect(setCookie).toMatch(
      /^queue_board=.+; Max-Age=\d+; Path=\/admin\/queues; Expires=.+; HttpOnly; SameSite=Strict/,
    );
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)![1]);
    const { exp } = stack.services.tokens.verifyAccess(admin.tokens.accessToken);
    expect(Math.abs(Date.now() / 1000 + maxAge - exp)).toBeLessThan(3);
    const cookie = setCookie.split(';')[0];

    const html = await page(cookie);
    expect(html.status).toBe(200);
    expect(html.text).toMatch(/<html/i);
    const queues = await api(cookie);
    expect(queues.status).toBe(200);
    expect(queues.headers['cache-control']).toBe('no-store');
    expect(queues.body.queues.map((q: { name: string }) => q.name)).toEqual(
      expect.arrayContaining(['mail', 'broadcast']),
    );

    const forged = await page(cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')));
    expect(forged.status).toBe(401);
  });

  it('serves the dashboard with security headers and a CSP allowing only what its page loads', async () => {
    const admin = await createAccount(stack, { platformAdmin: true });
    const res = await page(await open(admin));
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers).toMatchObject({
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    expect(res.headers['strict-transport-security']).toBeDefined();
    // Every script the page loads comes from the dashboard itself; its one inline <script> is JSON data.
    const tags = [...res.text.matchAll(/<script[^>]*>/g)].map(([tag]) => tag);
    expect(tags.length).toBeGreaterThan(1);
    for (const tag of tags) expect(tag).toMatch(/\ssrc="static\/|\stype="application\/json"/);
  });

  describe('re-checks every request, the dashboard API included', () => {
    it('refuses the cookie once its session logged out', async () => {
      const admin = await createAccount(stack, { platformAdmin: true });
      const cookie = await open(admin);
      expect((await pause(cookie)).status).toBe(200);
      await stack.http.put('/admin/queues/api/queues/mail/resume').set('Cookie', cookie);
      expect((await stack.http.post('/auth/logout').set(admin.auth)).status).toBe(204);
      for (const res of [await page(cookie), await api(cookie), await pause(cookie)]) {
        expect(res.status).toBe(401);
        expect(res.body.code).toBe('token_revoked');
      }
      expect((await page(cookie)).headers['set-cookie']?.[0]).toMatch(/^queue_board=;/);
    });

    it('refuses the cookie once platform administration is removed', async () => {
      const [admin, other] = [
        await createAccount(stack, { platformAdmin: true }),
        await createAccount(stack, { platformAdmin: true }),
      ];
      const cookie = await open(admin);
      expect((await api(cookie)).status).toBe(200);
      expect((await stack.http.delete(`/admin/users/${admin.user.id}/platform-admin`).set(other.auth)).status).toBe(
        200,
      );
      const res = await pause(cookie);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('platform_admin_required');
    });

    it('refuses the cookie once the account is disabled', async () => {
      const [admin, other] = [
        await createAccount(stack, { platformAdmin: true }),
        await createAccount(stack, { platformAdmin: true }),
      ];
      const cookie = await open(admin);
      expect((await stack.http.post(`/admin/users/${admin.user.id}/disable`).set(other.auth)).status).toBe(200);
      expect([401, 403]).toContain((await api(cookie)).status);
    });

    it('refuses the cookie once all sessions are signed out', async () => {
      const admin = await createAccount(stack, { platformAdmin: true });
      const cookie = await open(admin);
      expect((await stack.http.delete('/users/me/sessions').set(admin.auth)).status).toBe(204);
      expect((await api(cookie)).status).toBe(401);
    });

    it('takes a new token over a refused cookie', async () => {
      const admin = await createAccount(stack, { platformAdmin: true });
      const cookie = await open(admin);
      await stack.http.post('/auth/logout').set(admin.auth);
      const login = await stack.http.post('/auth/login').send({ email: admin.email, password: admin.password });
      const again = await stack.http.get(`/admin/queues?token=${login.body.accessToken}`).set('Cookie', cookie);
      expect(again.status).toBe(303);
      expect((await api(again.headers['set-cookie'][0].split(';')[0])).status).toBe(200);
    });
  });
});
