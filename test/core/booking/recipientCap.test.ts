import { overRecipientCap } from '../../../domain/platform/capRecipient';
import { newId } from '../../../entities/base';
import type { MailMessage } from '../../../entities/platform/mail';
import { createAccount, DEFAULT_PASSWORD, type Account } from '../../support/factories';
import { mailsTo, relaxedLimits } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';

const ALL_WEEK = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, ['09:00-18:00']]));
const CAP = 3;

/**
 * One inbox a stranger aims at through every public route that mails an address they name (storefront bookings,
 * visitor sign-in links, sign-up) gets at most MAIL_RECIPIENT_CAP_PER_HOUR of those mails an hour; the requests
 * are answered as always, and the operator sees what was held back.
 */
describe('mail: per-recipient cap on mails anyone can cause', () => {
  let stack: TestStack;
  let admin: Account;
  let slug: string;
  let serviceId: string;

  beforeAll(async () => {
    stack = await startStack({ env: { ...relaxedLimits, MAIL_RECIPIENT_CAP_PER_HOUR: String(CAP) } });
    admin = await createAccount(stack, { platformAdmin: true });
    const owner = await createAccount(stack, { tier: 'business' });
    const business = (await stack.http.get('/api/businesses').set(owner.auth)).body as { id: string };
    slug = `capped-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    expect(
      (
        await stack.http
          .patch(`/api/businesses/${business.id}`)
          .set(owner.auth)
          .send({ publicSlug: slug, publicProfile: { published: true } })
      ).status,
    ).toBe(200);
    serviceId = (
      await stack.http
        .post('/api/rdv/services')
        .set(owner.auth)
        .send({ name: 'Coupe', durationMinutes: 30, priceCents: 2500 })
    ).body.id;
    expect(
      (await stack.http.post('/api/rdv/staff').set(owner.auth).send({ displayName: 'Alice', weeklyHours: ALL_WEEK }))
        .status,
    ).toBe(201);
  });
  afterAll(() => stack.close());

  const book = (email: string, start: string) =>
    stack.http.post(`/api/public/stores/${slug}/bookings`).send({ name: 'Someone', email, serviceId, start });
  const requestLink = (email: string) =>
    stack.http.post('/api/public/auth/request-link').send({ publicSlug: slug, email });
  /** The recipient's mails once the worker has handled every one of them. */
  const handled = (email: string, count: number) =>
    eventually(
      async () => {
        const mails = await mailsTo(stack, email);
        return mails.length === count && mails.every((m) => m.status !== 'queued') ? mails : null;
      },
      { what: `${count} mails to ${email} handled` },
    );
  const capped = async () => (await stack.services.metrics.mailsCapped.get()).values.reduce((n, v) => n + v.value, 0);

  it('sends an address at most the cap an hour, answers every request as usual and records the rest capped', async () => {
    const victim = `victim.${Date.now()}@example.test`;
    const before = await capped();
    const answers = [
      await book(victim, '2030-05-06T07:00:00Z'),
      await book(victim, '2030-05-06T08:00:00Z'),
      await requestLink(victim),
      await requestLink(victim.toUpperCase()),
      await stack.http.post('/auth/register').send({ email: victim, password: DEFAULT_PASSWORD }),
    ];
    expect(answers.map((r) => r.status)).toEqual([201, 201, 202, 202, 202]);
    expect(answers[3].body).toEqual({ status: 'sign_in_link_sent' });
    expect(answers[4].body).toEqual({ status: 'confirmation_sent' });

    const mails = await handled(victim, 5);
    const byStatus = (status: MailMessage['status']) => mails.filter((m) => m.status === status).length;
    expect({ delivered: byStatus('kept'), capped: byStatus('capped') }).toEqual({ delivered: CAP, capped: 5 - CAP });
    expect((await capped()) - before).toBe(5 - CAP);

    // The operator sees them: in the outbox and the platform overview.
    const outbox = await stack.http.get('/admin/outbox').query({ to: victim, status: 'capped' }).set(admin.auth);
    expect(outbox.status).toBe(200);
    expect(outbox.body.items).toHaveLength(5 - CAP);
    expect((await stack.http.get('/admin/stats/overview').set(admin.auth)).body.mails.capped).toBeGreaterThanOrEqual(
      5 - CAP,
    );

    // Another address is not affected, and the booking made past the cap stands (its manage token was answered).
    const other = `other.${Date.now()}@example.test`;
    expect((await book(other, '2030-05-06T09:00:00Z')).status).toBe(201);
    expect((await handled(other, 1))[0].status).toBe('kept');
  });

  it('counts a mail once however often its job runs, and never caps mails asked for by their recipient', async () => {
    const to = `retried.${Date.now()}@example.test`;
    const mail = (template: string) => ({ id: newId(), to, template });
    const first = mail('booking_sign_in');
    for (let i = 0; i < CAP + 2; i++) expect(await overRecipientCap(stack.services, first)).toBe(false);
    for (let i = 1; i < CAP; i++) expect(await overRecipientCap(stack.services, mail('reset_password'))).toBe(false);
    expect(await overRecipientCap(stack.services, mail('booking_confirmation'))).toBe(true);
    expect(await overRecipientCap(stack.services, mail('booking_reminder'))).toBe(false);
    expect(await overRecipientCap(stack.services, mail('knowledge_article'))).toBe(false);
  });
});
