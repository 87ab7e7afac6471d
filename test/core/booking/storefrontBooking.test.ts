import { Appointment } from '../../../entities/core/booking';
import { Customer } from '../../../entities/core/customer';
import { MailMessage } from '../../../entities/identity/mail';
import { hubNotificationsQueue, type HubNotification } from '../../../queues/notifications';
import { createAccount, type Account } from '../../support/factories';
import { expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

const ALL_WEEK = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, ['09:00-18:00']]));

/**
 * A storefront booking commits its customer, its appointment and its confirmation mail at once: a refused booking
 * leaves nothing behind, and hub events go out only for what committed.
 */
describe('core: storefront booking', () => {
  let stack: TestStack;
  let owner: Account;
  let slug: string;
  let serviceId: string;
  let staffId: string;

  beforeAll(async () => {
    // Workers off: the hub notifications a request enqueued stay in their queue, where the test reads them.
    stack = await startStack({ workers: false, env: { HUB_URL: 'http://127.0.0.1:9', CORE_WEBHOOK_SECRET: 'core-secret' } });
    owner = await createAccount(stack, { tier: 'business' });
    const business = (await stack.http.get('/api/businesses').set(owner.auth)).body as { id: string };
    slug = `atomic-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    expect((await stack.http.patch(`/api/businesses/${business.id}`).set(owner.auth).send({ publicSlug: slug, publicProfile: { published: true } })).status).toBe(200);
    serviceId = (await stack.http.post('/api/rdv/services').set(owner.auth).send({ name: 'Coupe', durationMinutes: 30, priceCents: 2500 })).body.id;
    staffId = (await stack.http.post('/api/rdv/staff').set(owner.auth).send({ displayName: 'Alice', weeklyHours: ALL_WEEK })).body.id;
  });
  afterAll(() => stack.close());

  const bookOnline = (body: Record<string, unknown>, ip = '198.51.100.1') => stack.http.post(`/api/public/stores/${slug}/bookings`).set('X-Forwarded-For', ip).send({ serviceId, ...body });
  const customersWith = (emails: string[]) => stack.services.orm.em.fork().find(Customer, { primaryEmail: { $in: emails } }, { filters: false });
  const hubEvents = async (event: string) =>
    (await stack.services.queues.get(hubNotificationsQueue).getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).map((j) => j.data as HubNotification).filter((n) => n.event === event);

  it('leaves no customer and no customer.created event behind a lost race (409 slot_taken)', async () => {
    const start = '2030-04-01T08:00:00.000Z';
    const emails = Array.from({ length: 12 }, (_, i) => `racer.${i}.${Date.now()}@example.test`);
    const answers = await Promise.all(emails.map((email, i) => bookOnline({ name: `Racer ${i}`, email, start }, `198.51.100.${10 + i}`)));
    const won = answers.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((r) => r.status !== 201)) expectProblem(lost, 409, 'slot_taken');

    const winner = emails[answers.indexOf(won[0])];
    const customers = await customersWith(emails);
    expect(customers.map((c) => c.primaryEmail)).toEqual([winner]);
    // Notifications were enqueued before each answer: what the queue holds now is all there will be.
    const created = (await hubEvents('customer.created')).filter((n) => String(n.data.name).startsWith('Racer '));
    expect(created.map((n) => n.customerId)).toEqual([customers[0].id]);
    expect((await hubEvents('appointment.booked')).filter((n) => n.customerId === customers[0].id)).toHaveLength(1);
  });

  it('commits the appointment, its customer and its confirmation mail together: a failed mail write leaves none of them', async () => {
    const email = `together.${Date.now()}@example.test`;
    const booking = { name: 'Tess Together', email, start: '2030-04-01T10:00:00.000Z' };
    const em = stack.services.orm.em.fork();
    // The confirmation's insert fails as a statement timeout would (PostgreSQL's 57014), for this address only.
    await em.execute(
      `create function refuse_mail() returns trigger language plpgsql as $$ begin if new."to" = '${email}' then raise exception 'canceling statement due to statement timeout' using errcode = '57014'; end if; return new; end $$`,
    );
    await em.execute('create trigger refuse_mail before insert on mail_messages for each row execute function refuse_mail()');
    try {
      expectProblem(await bookOnline(booking), 503, 'dependency_unavailable');
    } finally {
      await em.execute('drop trigger refuse_mail on mail_messages; drop function refuse_mail()');
    }
    expect(await customersWith([email])).toEqual([]);
    expect(await em.find(Appointment, { attendeeEmail: email }, { filters: false })).toEqual([]);

    // Nothing was left holding the slot: booking again commits the three.
    expect((await bookOnline(booking)).status).toBe(201);
    expect(await customersWith([email])).toHaveLength(1);
    expect(await em.find(Appointment, { attendeeEmail: email }, { filters: false })).toHaveLength(1);
    expect(await em.find(MailMessage, { to: email, template: 'booking_confirmation' })).toHaveLength(1);
  });

  it('a member booking refused with 409 slot_taken creates no customer either', async () => {
    const start = '2030-04-01T12:00:00.000Z';
    expect((await stack.http.post('/api/appointments').set(owner.auth).send({ serviceId, staffId, start })).status).toBe(201);
    const email = `refused.${Date.now()}@example.test`;
    expectProblem(await stack.http.post('/api/appointments').set(owner.auth).send({ serviceId, staffId, start, attendee: { name: 'Rita Refused', email } }), 409, 'slot_taken');
    expect(await customersWith([email])).toEqual([]);
    expect((await hubEvents('customer.created')).filter((n) => n.data.name === 'Rita Refused')).toEqual([]);
  });
});
