import { createLogger } from '../../lib/logger';
import { createAccount } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

/**
 * Credentials never reach the logs at the default level (info): not a token in a URL's query (the queue
 * dashboard is opened with ?token=<access token>), a signed address's signature, a Referer naming such a page,
 * nor a URL with one inside an error's message, an error's fields or a log line's own fields.
 */
describe('credentials in logged URLs', () => {
  let stack: TestStack;
  const logs: string[] = [];
  beforeAll(async () => {
    stack = await startStack({ workers: false, logs, env: { LOG_LEVEL: 'info' } });
  });
  afterAll(async () => {
    await stack.close();
  });

  /** The request lines logged for `path` (one per answered request, api/http/observe.ts). */
  const requestLines = (path: string) =>
    logs
      .map(
        (l) =>
          JSON.parse(l) as { req?: { url: string; query: Record<string, string>; headers: Record<string, string> } },
      )
      .filter((l) => l.req?.url.startsWith(path));

  it('logs the queue dashboard opened with ?token= without the administrator token', async () => {
    const admin = await createAccount(stack, { platformAdmin: true });
    const token = admin.tokens.accessToken;
    const opened = await stack.http.get(`/admin/queues?token=${encodeURIComponent(token)}`);
    expect(opened.status).toBe(303);
    // The dashboard's own requests name the page in their Referer.
    await stack.http
      .get('/admin/queues/api/queues')
      .set('Referer', `${stack.url}/admin/queues?token=${token}`)
      .set('Cookie', opened.headers['set-cookie'] ?? []);

    const lines = requestLines('/admin/queues');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0].req?.url).toBe('/admin/queues?token=[redacted]');
    expect(lines.some((l) => l.req?.headers.referer === `${stack.url}/admin/queues?token=[redacted]`)).toBe(true);
    expect(logs.join('\n')).not.toContain(token);
    // Nor the dashboard's session cookie, set by the answer.
    const cookie = String(opened.headers['set-cookie']?.[0]).split(';')[0].split('=')[1];
    expect(cookie.length).toBeGreaterThan(20);
    expect(logs.join('\n')).not.toContain(cookie);
    // Nor its signature part alone (what a log search would find of a truncated token).
    expect(logs.join('\n')).not.toContain(token.split('.')[2]);
  });

  it('redacts every sensitive query value and keeps the others', async () => {
    const secrets = [
      's3cr3t-access',
      's3cr3t-refresh',
      's3cr3t-amz',
      's3cr3t-api',
      's3cr3t-code',
      's3cr3t-password',
      's3cr3t-sig',
      's3cr3t-t',
    ];
    const query = ['access_token', 'refresh_token', 'X-Amz-Signature', 'api_key', 'code', 'password', 'sig', 't']
      .map((name, i) => `${name}=${secrets[i]}`)
      .join('&');
    await stack.http.get(`/nowhere?limit=10&${query}&cursor=abc`).expect(404);
    await stack.http.get(`/storage/some/key?op=get&exp=1&${query}`);
    const [line] = requestLines('/nowhere');
    expect(line.req?.url).toBe(
      '/nowhere?limit=10&access_token=[redacted]&refresh_token=[redacted]&X-Amz-Signature=[redacted]&api_key=[redacted]&code=[redacted]&password=[redacted]&sig=[redacted]&t=[redacted]&cursor=abc',
    );
    expect(requestLines('/storage/').length).toBe(1);
    for (const secret of secrets) expect(logs.join('\n')).not.toContain(secret);
  });

  it('redacts tokens carried in the path (secret calendar feeds, share links, invitations, booking links)', async () => {
    const secrets = [
      'feed-s3cr3t-token-0123456789',
      'share-s3cr3t-token-0123456789',
      'invite-s3cr3t-token-0123456789',
      'integration-s3cr3t-0123456789',
    ];
    await stack.http.get(`/api/calendar/feed/${secrets[0]}`);
    await stack.http.get(`/api/cloud/shared/${secrets[1]}/download?t=x`);
    await stack.http.get(`/orgs/invites/${secrets[2]}`);
    await stack.http.post(`/api/integrations/${secrets[3]}`).send({});
    expect(requestLines('/api/calendar/feed/')[0]?.req?.url).toBe('/api/calendar/feed/[redacted]');
    expect(requestLines('/api/cloud/shared/')[0]?.req?.url).toBe('/api/cloud/shared/[redacted]/download?t=[redacted]');
    expect(requestLines('/orgs/invites/')[0]?.req?.url).toBe('/orgs/invites/[redacted]');
    for (const secret of secrets) expect(logs.join('\n')).not.toContain(secret);
  });

  it('redacts URLs inside messages, fields and errors, at every level', () => {
    const lines: string[] = [];
    const logger = createLogger(
      { LOG_LEVEL: 'info', NODE_ENV: 'test' },
      { write: (line: string) => void lines.push(line) },
    );
    const failure = Object.assign(
      new TypeError('fetch https://storage.example/obj?X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=abc123 failed'),
      { input: 'https://app.example/reset?token=reset-secret' },
    );
    logger.error({ err: failure }, 'upload failed');
    logger.warn({ err: new Error('GET /api/invoices?access_token=warn-secret answered 500') }, 'retrying');
    logger.info(
      { link: 'https://app.example/verify?token=mail-secret&lang=fr', nested: { urls: ['/x?api_key=nested-secret'] } },
      'mail queued for https://app.example/invite?token=message-secret',
    );
    const text = lines.join('\n');
    for (const secret of [
      'AKIAEXAMPLE',
      'abc123',
      'reset-secret',
      'warn-secret',
      'mail-secret',
      'nested-secret',
      'message-secret',
    ])
      expect(text).not.toContain(secret);
    const [error, warn, info] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(error.err).toMatchObject({
      type: 'TypeError',
      message: 'fetch https://storage.example/obj?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted] failed',
      input: 'https://app.example/reset?token=[redacted]',
    });
    expect(String((error.err as { stack: string }).stack)).toContain('X-Amz-Signature=[redacted]');
    expect(warn.err).toBe('Error: GET /api/invoices?access_token=[redacted] answered 500');
    expect(info).toMatchObject({
      link: 'https://app.example/verify?token=[redacted]&lang=fr',
      nested: { urls: ['/x?api_key=[redacted]'] },
      msg: 'mail queued for https://app.example/invite?token=[redacted]',
    });
  });
});
