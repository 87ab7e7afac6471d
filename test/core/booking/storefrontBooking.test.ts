import { Appointment } from '../../../entities/core/booking';
import { Customer } from '../../../entities/core/customer';
import { MailMessage } from '../../../entities/platform/mail';
import { hubNotificationsQueue, type HubNotification } from '../../../queues/notifications';
import { createAccount, type Account } from '../../support/factories';
import { expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

const ALL_WEEK = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, ['09:00-18:00']]));

interface Shop {
  owner: Account;
  slug: string;
  serviceId: string;
  staffId: string;
}

/** Small limits, so that tests reach them; each booking names its client address (X-Forwarded-For, trusted from loopback). */
const LIMITS = {
  RATE_LIMIT_BOOKINGS_PER_IP_HOUR: '3',
  RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR: '2',
  RATE_LIMIT_BOOKINGS_PER_STORE_HOUR: '20',
};

/**
 * A storefront booking commits its customer, its appointment and its confirmation mail at once: a refused booking
 * leaves nothing behind, and hub events go out only for what committed. Bookings made are limited per client
 * address, attendee e-mail and store an hour.
 */
describe('core: storefront booking', () => {
  let stack: TestStack;
  let owner: Account;
  let slug: string;
  let serviceId: string;
  let staffId: string;

  async function openShop(): Promise<Shop> {
    const account = await createAccount(stack, { tier: 'business' });
    const business = (await stack.http.get('/api/businesses').set(account.auth)).body as { id: string };
    const publicSlug = `shop-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    expect(
      (
        await stack.http
          .patch(`/api/businesses/${business.id}`)
          .set(account.auth)
          .send({ publicSlug, publicProfile: { published: true } })
      ).status,
    ).toBe(200);
    const service = (
      await stack.http
        .post('/api/rdv/services')
        .set(account.auth)
        .send({ name: 'Coupe', durationMinutes: 30, priceCents: 2500 })
    ).body.id as string;
    const staff = (
      await stack.http.post('/api/rdv/staff').set(account.auth).send({ displayName: 'Alice', weeklyHours: ALL_WEEK })
    ).body.id as string;
    return { owner: account, slug: publicSlug, serviceId: service, staffId: staff };
  }

  beforeAll(async () => {
    // Workers off: the hub notifications a request enqueued stay in their queue, where the test reads them.
    stack = await startStack({
      workers: false,
      env: { HUB_URL: 'http://127.0.0.1:9', CORE_WEBHOOK_SECRET: 'core-secret', ...LIMITS },
    });
    ({ owner, slug, serviceId, staffId } = await openShop());
  });
  afterAll(() => stack.close());

  const bookAt = (shop: Pick<Shop, 'slug' | 'serviceId'>, body: Record<string, unknown>, ip: string) =>
    stack.http
      .post(`/api/public/stores/${shop.slug}/bookings`)
      .set('X-Forwarded-For', ip)
      .send({ serviceId: shop.serviceId, ...body });
  const bookOnline = (body: Record<string, unknown>, ip = '198.51.100.1') => bookAt({ slug, serviceId }, body, ip);
  const customersWith = (emails: string[]) =>
    stack.services.orm.em.fork().find(Customer, { primaryEmail: { $in: emails } }, { filters: false });
  const hubEvents = async (event: string) =>
    (
      await stack.services.queues
        .get(hubNotificationsQueue)
        .getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])
    )
      .map((j) => j.data as HubNotification)
      .filter((n) => n.event === event);

  it('leaves no customer and no customer.created event behind a lost race (409 slot_taken)', async () => {
    const start = '2030-04-01T08:00:00.000Z';
    const emails = Array.from({ length: 12 }, (_, i) => `racer.${i}.${Date.now()}@example.test`);
    const answers = await Promise.all(
      emails.map((email, i) => bookOnline({ name: `Racer ${i}`, email, start }, `198.51.100.${10 + i}`)),
    );
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
    // The confirmation's insert fails as a statement timeout would (PostgreSQL's 57014), for this address only
    // (a trigger only the schema's owner may create).
    const owner = (await stack.asOwner()).em.fork();
    await owner.execute(
      `create function refuse_mail() returns trigger language plpgsql as $$ begin if new."to" = '${email}' then raise exception 'canceling statement due to statement timeout' using errcode = '57014'; end if; return new; end $$`,
    );
    await owner.execute(
      'create trigger refuse_mail before insert on mail_messages for each row execute function refuse_mail()',
    );
    try {
      expectProblem(await bookOnline(booking), 503, 'dependency_unavailable');
    } finally {
      await owner.execute('drop trigger refuse_mail on mail_messages; drop function refuse_mail()');
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
    expect(
      (await stack.http.post('/api/appointments').set(owner.auth).send({ serviceId, staffId, start })).status,
    ).toBe(201);
    const email = `refused.${Date.now()}@example.test`;
    expectProblem(
      await stack.http
        .post('/api/appointments')
        .set(owner.auth)
        .send({ serviceId, staffId, start, attendee: { name: 'Rita Refused', email } }),
      409,
      'slot_taken',
    );
    expect(await customersWith([email])).toEqual([]);
    expect((await hubEvents('customer.created')).filter((n) => n.data.name === 'Rita Refused')).toEqual([]);
  });

  /** Slot n of 2030-05-06 (a Monday) and on: 30-minute slots from 09:00 Paris time (07:00Z in May), 18 a day. */
  const slot = (n: number) =>
    new Date(Date.UTC(2030, 4, 6 + Math.floor(n / 18), 7, 0) + (n % 18) * 30 * 60_000).toISOString();
  const expectLimited = (res: Awaited<ReturnType<typeof bookOnline>>) => {
    expectProblem(res, 429, 'rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
  };

  it('limits the bookings one address makes an hour; refused ones do not count, other addresses still book', async () => {
    const shop = await openShop();
    const ip = '203.0.113.7';
    const email = (i: number) => `flood.${i}.${Date.now()}@example.test`;
    // Refused bookings (a slot taken, bad input) cost nothing.
    expect((await bookAt(shop, { name: 'First', email: email(0), start: slot(0) }, '203.0.113.99')).status).toBe(201);
    for (let i = 0; i < 4; i++)
      expectProblem(await bookAt(shop, { name: 'Late', email: email(100 + i), start: slot(0) }, ip), 409, 'slot_taken');
    expectProblem(await bookAt(shop, { name: '', email: email(200), start: slot(1) }, ip), 400, 'validation_failed');
    for (let i = 1; i <= 3; i++)
      expect((await bookAt(shop, { name: `Flood ${i}`, email: email(i), start: slot(i) }, ip)).status).toBe(201);
    const refused = await bookAt(shop, { name: 'Flood 4', email: email(4), start: slot(4) }, ip);
    expectLimited(refused);
    expect(await customersWith([email(4)])).toEqual([]);
    // Another address is not affected.
    expect((await bookAt(shop, { name: 'Other', email: email(5), start: slot(5) }, '203.0.113.8')).status).toBe(201);
  });

  it('limits the bookings made for one attendee e-mail an hour, whatever the address or its case', async () => {
    const shop = await openShop();
    const email = `inbox.${Date.now()}@example.test`;
    expect((await bookAt(shop, { name: 'Ines', email, start: slot(20) }, '192.0.2.1')).status).toBe(201);
    expect((await bookAt(shop, { name: 'Ines', email, start: slot(21) }, '192.0.2.2')).status).toBe(201);
    expectLimited(
      await bookAt(shop, { name: 'Ines', email: ` ${email.toUpperCase()} `, start: slot(22) }, '192.0.2.3'),
    );
    expect(await stack.services.orm.em.fork().count(Appointment, { attendeeEmail: email }, { filters: false })).toBe(2);
    expect(await stack.services.orm.em.fork().count(MailMessage, { to: email, template: 'booking_confirmation' })).toBe(
      2,
    );
  });

  it('limits the bookings one store takes an hour, whatever the addresses; other stores still book', async () => {
    const shop = await openShop();
    const stamp = Date.now();
    for (let i = 0; i < 20; i++)
      expect(
        (
          await bookAt(
            shop,
            { name: `Guest ${i}`, email: `guest.${i}.${stamp}@example.test`, start: slot(40 + i) },
            `10.1.${i}.1`,
          )
        ).status,
      ).toBe(201);
    expectLimited(
      await bookAt(shop, { name: 'Guest 20', email: `guest.20.${stamp}@example.test`, start: slot(60) }, '10.1.20.1'),
    );
    expect(
      (
        await bookAt(
          { slug, serviceId },
          { name: 'Elsewhere', email: `elsewhere.${stamp}@example.test`, start: slot(60) },
          '10.1.21.1',
        )
      ).status,
    ).toBe(201);
  });

  it('shares bookings that name nobody by round robin (priority, then weight, then the least recently booked), reported in the answer and on the appointment', async () => {
    const shop = await openShop(); // Alice: priority 2, weight 100 (the defaults)
    const { auth } = shop.owner;
    const addStaff = async (body: Record<string, unknown>) =>
      (
        await stack.http
          .post('/api/rdv/staff')
          .set(auth)
          .send({ weeklyHours: ALL_WEEK, ...body })
          .expect(201)
      ).body;
    expect(await addStaff({ displayName: 'Bruno', weight: 200 })).toMatchObject({ priority: 2, weight: 200 });
    const chloe = await addStaff({ displayName: 'Chloé', priority: 0 });
    const book = (i: number, start: string, extra: Record<string, unknown> = {}) =>
      bookAt(
        shop,
        { name: `Robin ${i}`, email: `robin.${i}.${Date.now()}@example.test`, start, ...extra },
        `10.9.9.${i}`,
      );

    const chosen: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const answer = await book(i, `2030-05-0${i}T09:00:00.000Z`).expect(201);
      expect(answer.body.assignment).toEqual({ method: 'round_robin', reason: expect.any(String) });
      chosen.push(answer.body.staffName as string);
    }
    // Bruno's double weight takes twice Alice's share; Chloé's lower priority takes none while they are free.
    const count = (name: string) => chosen.filter((n) => n === name).length;
    expect([count('Alice'), count('Bruno'), count('Chloé')]).toEqual([2, 4, 0]);

    // Two visitors at once for one slot: the first ranked takes one, the other falls to the next free (no 409).
    const both = await Promise.all([7, 8].map((i) => book(i, '2030-05-10T09:00:00.000Z')));
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(new Set(both.map((r) => r.body.staffName)).size).toBe(2);

    const named = await book(9, '2030-05-11T09:00:00.000Z', { staffId: chloe.id }).expect(201);
    expect(named.body.assignment).toEqual({ method: 'requested', reason: 'requested' });

    // Members see the figures round robin compared.
    const page = await stack.http.get('/api/appointments?from=2030-05-06T00:00:00Z&to=2030-05-07T00:00:00Z').set(auth);
    expect(page.status).toBe(200);
    expect(page.body.items[0].assignment).toMatchObject({
      method: 'round_robin',
      considered: 3,
      recentBookings: expect.any(Number),
      windowDays: 30,
    });
    await stack.http.patch(`/api/rdv/staff/${chloe.id}`).set(auth).send({ weight: 0 }).expect(400);
  });
});
