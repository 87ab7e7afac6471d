import { Script } from 'node:vm';
import { startStack, type TestStack } from '../support/stack';
import { createAccount, type Account } from '../support/factories';
import { accountLinksHandled, deliveredMail, linkToken } from '../support/identity';

/** Without APP_URL, the links of mails open pages of the API server itself (api/pages/mailLinks.ts). */
describe('pages behind mailed links', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack();
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  it.each([
    '/confirm-email?token=abc',
    '/reset-password?token=abc',
    '/book/some-store/manage?token=abc',
    '/book/some-store/sign-in?token=abc',
    '/book/some-store/sign-in',
  ])('serves %s as HTML under a strict CSP, naming no tenant', async (path) => {
    const res = await stack.http.get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).not.toContain(owner.tenantId);
    expect(res.text).not.toContain('abc');
    expect(res.text).not.toMatch(/<script>|\son\w+=/);
  });

  it('serves the one script and style sheet, and the script parses', async () => {
    const script = await stack.http.get('/pages/assets/pages.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(() => new Script(script.text)).not.toThrow();
    const style = await stack.http.get('/pages/assets/pages.css');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('resets a password end to end: the mailed link opens the page, its call sets the password', async () => {
    expect((await stack.http.post('/auth/forgot-password').send({ email: owner.email })).status).toBe(202);
    await accountLinksHandled(stack);
    const mail = await deliveredMail(stack, owner.email, 'reset_password');
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    expect(link.origin).toBe(stack.url);
    const page = await stack.http.get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(page.text).toContain('id="password"');
    // What the page's script sends on submit.
    const reset = await stack.http
      .post('/auth/reset-password')
      .send({ token: linkToken(mail), password: 'a brand new passphrase' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ status: 'password_reset' });
    expect(
      (await stack.http.post('/auth/login').send({ email: owner.email, password: 'a brand new passphrase' })).status,
    ).toBe(200);
  });

  it('serves none of them when a front end is configured (APP_URL)', async () => {
    const withFrontEnd = await startStack({
      sharing: stack,
      workers: false,
      env: { APP_URL: 'https://app.example.com' },
    });
    try {
      expect((await withFrontEnd.http.get('/confirm-email?token=abc')).status).toBe(404);
    } finally {
      await withFrontEnd.close();
    }
  });
});
