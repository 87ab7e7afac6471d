import { MailMessage } from '../../entities/platform/mail';
import { KnowledgeSubscriber } from '../../entities/knowledge/subscriber';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { createSpace } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';

const P = '/api/knowledge/public';
/** Small limits, so that tests reach them; each request names its client address (X-Forwarded-For, trusted from loopback). */
const LIMITS = {
  RATE_LIMIT_SUBSCRIPTIONS_PER_IP_HOUR: '3',
  RATE_LIMIT_SUBSCRIPTIONS_PER_EMAIL_HOUR: '2',
  RATE_LIMIT_SUBSCRIPTIONS_PER_SPACE_HOUR: '6',
};

/** Blog subscriptions a stranger can ask for: how many mails they cause, and how often they may ask. */
describe('knowledge: blog subscriptions', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: LIMITS });
    owner = await createAccount(stack);
  });
  afterAll(() => stack?.close());

  const blog = async () =>
    (await createSpace(stack, owner, { name: `Blog ${Math.random().toString(36).slice(2, 8)}`, mode: 'blog' })) as {
      id: string;
      slug: string;
    };
  const subscribe = (slug: string, email: string, ip: string) =>
    stack.http.post(`${P}/spaces/${slug}/subscribe`).set('X-Forwarded-For', ip).send({ email });
  const confirmations = (email: string) =>
    stack.services.orm.em.fork().count(MailMessage, { to: email, template: 'knowledge_subscribe_confirm' });
  const expectLimited = (res: Awaited<ReturnType<typeof subscribe>>) => {
    expectProblem(res, 429, 'rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('mails a pending address one confirmation, not one per request, and again once the last one is a day old', async () => {
    const space = await blog();
    const email = `pending.${Date.now()}@example.test`;
    for (const [i, ip] of ['192.0.2.1', '192.0.2.2'].entries()) {
      const res = await subscribe(space.slug, i ? email.toUpperCase() : email, ip);
      expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: { status: 'pending' } });
    }
    expect(await confirmations(email)).toBe(1);

    // A day later (the confirmation's date moved back, the hour's counter of the address gone) the address, still
    // pending, may be sent the confirmation again: the first may have been lost.
    const em = stack.services.orm.em.fork();
    await em.nativeUpdate(
      KnowledgeSubscriber,
      { spaceId: space.id },
      { confirmationMailedAt: new Date(Date.now() - 25 * 3_600_000) },
      { filters: false },
    );
    await stack.services.redis.del(`${stack.services.key('rl', 'kb-subscribe-email')}:${email}`);
    expect((await subscribe(space.slug, email, '192.0.2.3')).status).toBe(202);
    expect(await confirmations(email)).toBe(2);
  });

  it('limits the subscriptions one address asks for an hour; other addresses still subscribe', async () => {
    const space = await blog();
    const ip = '198.51.100.50';
    const stamp = Date.now();
    for (let i = 0; i < 3; i++)
      expect((await subscribe(space.slug, `reader.${i}.${stamp}@example.test`, ip)).status).toBe(202);
    expectLimited(await subscribe(space.slug, `reader.3.${stamp}@example.test`, ip));
    expect(await confirmations(`reader.3.${stamp}@example.test`)).toBe(0);
    expect((await subscribe(space.slug, `reader.3.${stamp}@example.test`, '198.51.100.51')).status).toBe(202);
  });

  it('limits the subscriptions asked for one recipient an hour, whatever the blog or address', async () => {
    const email = `target.${Date.now()}@example.test`;
    const [a, b, c] = [await blog(), await blog(), await blog()];
    expect((await subscribe(a.slug, email, '203.0.113.1')).status).toBe(202);
    expect((await subscribe(b.slug, email, '203.0.113.2')).status).toBe(202);
    expectLimited(await subscribe(c.slug, email.toUpperCase(), '203.0.113.3'));
    expect(await confirmations(email)).toBe(2);
  });

  it('limits the subscriptions one blog takes an hour, whatever the addresses; other blogs still take them', async () => {
    const [space, other] = [await blog(), await blog()];
    const stamp = Date.now();
    for (let i = 0; i < 6; i++)
      expect((await subscribe(space.slug, `fan.${i}.${stamp}@example.test`, `10.2.${i}.1`)).status).toBe(202);
    expectLimited(await subscribe(space.slug, `fan.6.${stamp}@example.test`, '10.2.6.1'));
    expect((await subscribe(other.slug, `fan.6.${stamp}@example.test`, '10.2.7.1')).status).toBe(202);
  });
});
