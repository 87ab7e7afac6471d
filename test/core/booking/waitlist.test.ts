import { DateTime } from 'luxon';
import { Appointment } from '../../../entities/core/booking';
import { WaitlistEntry } from '../../../entities/core/waitlist';
import { MailMessage } from '../../../entities/platform/mail';
import { sweepWaitlist } from '../../../domain/core/booking/sweepWaitlist';
import { publishStorefront } from '../../support/booking';
import { createAccount, type Account } from '../../support/factories';
import { expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';

const ZONE = 'Europe/Paris';
const HOLD_MINUTES = 30;

/**
 * The storefront waitlist of a full day: joining (once per address), a cancellation offering the first in line a
 * held slot by mail, claiming it, an expired hold passing to the next, declining and leaving, the members' list.
 * One stack for the file, workers on (the offer passes and mails run as in production); each visitor names its
 * own client address, as the storefront's rate limits count per IP.
 */
describe('core: storefront waitlist', () => {
  let stack: TestStack;
  let owner: Account;
  let shop: { slug: string; serviceId: string; staffId: string };
  let ip = 10;
  const nextIp = () => `198.51.100.${ip++}`;

  /** A day ahead whose only opening is 09:00-10:00 (one 60-minute slot). */
  const dayAhead = (days: number) => DateTime.now().setZone(ZONE).plus({ days }).toISODate()!;
  const startOf = (day: string, time = '09:00') => DateTime.fromISO(`${day}T${time}`, { zone: ZONE }).toUTC().toISO()!;

  async function oneSlotDays(days: string[]) {
    await stack.http
      .patch(`/api/rdv/staff/${shop.staffId}`)
      .set(owner.auth)
      .send({ dateOverrides: Object.fromEntries(days.map((d) => [d, ['09:00-10:00']])) })
      .expect(200);
  }
  /** Books the day's one slot (the day becomes full); the appointment's id. */
  async function fillDay(day: string): Promise<string> {
    const res = await stack.http
      .post('/api/appointments')
      .set(owner.auth)
      .send({ serviceId: shop.serviceId, staffId: shop.staffId, start: startOf(day) });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }
  const join = (body: Record<string, unknown>, from = nextIp()) =>
    stack.http
      .post(`/api/public/stores/${shop.slug}/waitlist`)
      .set('X-Forwarded-For', from)
      .send({ serviceId: shop.serviceId, name: 'Visitor', ...body });
  const mailsTo = (to: string, template: string) =>
    stack.services.orm.em.fork().find(MailMessage, { to, template }, { orderBy: { createdAt: 'asc' } });
  const tokenIn = (text: string) => decodeURIComponent(/token=([^\s]+)/.exec(text)![1]);
  const offerTo = (to: string) =>
    eventually(async () => (await mailsTo(to, 'booking_waitlist_offer'))[0], { what: `an offer to ${to}` });
  const hold = (token: string, action = '') =>
    stack.http[action ? 'post' : 'get'](
      `/api/public/stores/${shop.slug}/waitlist-holds/${encodeURIComponent(token)}${action}`,
    ).set('X-Forwarded-For', nextIp());
  const entryOf = (email: string) =>
    stack.services.orm.em
      .fork()
      .findOneOrFail(WaitlistEntry, { email }, { filters: false, orderBy: { createdAt: 'desc' } });

  beforeAll(async () => {
    stack = await startStack({ env: { BOOKING_WAITLIST_HOLD_MINUTES: String(HOLD_MINUTES) } });
    owner = await createAccount(stack, { tier: 'business' });
    shop = await publishStorefront(stack, owner, 'waitlist');
    await oneSlotDays([dayAhead(5), dayAhead(6), dayAhead(7)]);
  });
  afterAll(() => stack.close());

  it('offers a freed slot to the first in line, passes an expired hold to the next, and books a claim', async () => {
    const day = dayAhead(5);
    const stamp = Date.now();
    const [ann, bob] = [`ann.${stamp}@example.test`, `bob.${stamp}@example.test`];

    // A day with a free slot is not waited for: book it.
    expectProblem(await join({ day, email: ann }), 409, 'slots_available');
    const appointmentId = await fillDay(day);

    const joined = await join({ day, email: ann, name: 'Ann' });
    expect(joined.status).toBe(201);
    expect(joined.body).toEqual({ status: 'waiting', day, serviceId: shop.serviceId, serviceName: 'Visite' });
    expect(JSON.stringify(joined.body)).not.toContain(owner.tenantId);
    expect((await join({ day, email: bob, name: 'Bob' })).status).toBe(201);
    // One place per address while waiting (case does not make another address).
    expectProblem(await join({ day, email: ann.toUpperCase() }), 409, 'already_waiting');
    const [welcome] = await mailsTo(ann, 'booking_waitlist_joined');
    expect(welcome.text).toContain(`/book/${shop.slug}/waitlist/leave?token=`);

    // Members see the queue in order; another organisation's service is not found.
    const list = await stack.http.get(`/api/rdv/services/${shop.serviceId}/waitlist?day=${day}`).set(owner.auth);
    expect(list.status).toBe(200);
    expect(list.body.items.map((e: { email: string; status: string }) => [e.email, e.status])).toEqual([
      [ann, 'waiting'],
      [bob, 'waiting'],
    ]);

    // The cancellation frees the slot: Ann (first joined) is offered it, held for her alone.
    await stack.http.delete(`/api/appointments/${appointmentId}`).set(owner.auth).expect(200);
    const annOffer = await offerTo(ann);
    expect(annOffer.text).toContain(`/book/${shop.slug}/waitlist/hold?token=`);
    const annToken = tokenIn(annOffer.text);
    const seen = await hold(annToken);
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ status: 'offered', startAt: startOf(day) });
    expect(await mailsTo(bob, 'booking_waitlist_offer')).toEqual([]);
    const free = await stack.http
      .get(`/api/public/stores/${shop.slug}/availability`)
      .query({ serviceId: shop.serviceId, from: startOf(day, '00:00'), to: startOf(day, '23:00') })
      .set('X-Forwarded-For', nextIp());
    expect(free.body.slots).toEqual([]);
    // A member cannot book over the hold: the no-overlap constraint keeps it.
    expectProblem(
      await stack.http
        .post('/api/appointments')
        .set(owner.auth)
        .send({ serviceId: shop.serviceId, staffId: shop.staffId, start: startOf(day) }),
      409,
      'slot_taken',
    );

    // Ann's hold runs out (the clock's sweep at a time past it): Bob is offered the slot.
    const swept = await sweepWaitlist(stack.services, new Date(Date.now() + (HOLD_MINUTES + 1) * 60_000));
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    expect((await entryOf(ann)).status).toBe('expired');
    const bobOffer = await offerTo(bob);
    expectProblem(await hold(annToken, '/claim'), 409, 'hold_expired');

    // Bob claims it: the held appointment is booked for him, with a manage link mailed as for a booking.
    const claimed = await hold(tokenIn(bobOffer.text), '/claim');
    expect(claimed.status).toBe(201);
    expect(claimed.body.booking).toMatchObject({ status: 'booked', serviceId: shop.serviceId });
    const booked = await stack.services.orm.em
      .fork()
      .findOneOrFail(Appointment, { attendeeEmail: bob, status: 'booked' }, { filters: false });
    expect(booked.customerId).not.toBeNull();
    const managed = await stack.http
      .get(`/api/public/stores/${shop.slug}/bookings/${claimed.body.manageToken}`)
      .set('X-Forwarded-For', nextIp());
    expect(managed.body.status).toBe('booked');
    expect(await mailsTo(bob, 'booking_confirmation')).toHaveLength(1);
    expectProblem(await hold(tokenIn(bobOffer.text), '/claim'), 409, 'hold_claimed');
    expect((await entryOf(bob)).status).toBe('booked');
  });

  it('a declined hold goes to the next in line; a visitor leaves through the mailed link', async () => {
    const day = dayAhead(6);
    const stamp = Date.now();
    const [cy, dee, eve] = [`cy.${stamp}@example.test`, `dee.${stamp}@example.test`, `eve.${stamp}@example.test`];
    const appointmentId = await fillDay(day);
    for (const email of [cy, dee, eve]) expect((await join({ day, email })).status).toBe(201);

    // Dee leaves before any offer: her place ends, and leaving again changes nothing.
    const leave = tokenIn((await mailsTo(dee, 'booking_waitlist_joined'))[0].text);
    const place = `/api/public/stores/${shop.slug}/waitlist/${encodeURIComponent(leave)}`;
    expect((await stack.http.get(place).set('X-Forwarded-For', nextIp())).body.status).toBe('waiting');
    expect((await stack.http.delete(place).set('X-Forwarded-For', nextIp())).body.status).toBe('left');
    expect((await stack.http.delete(place).set('X-Forwarded-For', nextIp())).body.status).toBe('left');

    await stack.http.delete(`/api/appointments/${appointmentId}`).set(owner.auth).expect(200);
    const cyOffer = await offerTo(cy);
    const declined = await hold(tokenIn(cyOffer.text), '/decline');
    expect(declined.status).toBe(200);
    expect(declined.body.status).toBe('declined');
    // Eve is next (Dee left), offered the slot Cy released.
    await offerTo(eve);
    expect(await mailsTo(dee, 'booking_waitlist_offer')).toEqual([]);
  });

  it('refuses bad input with problems, and hides other organisations', async () => {
    const day = dayAhead(7);
    expectProblem(await join({ day: '2020-01-01', email: 'old@example.test' }), 400, 'validation_failed');
    expectProblem(await join({ day: '2030-02-30', email: 'x@example.test' }), 400, 'validation_failed');
    expectProblem(await join({ day, email: 'not-an-address' }), 400, 'validation_failed');
    expectProblem(
      await join({ day, email: 'x@example.test', serviceId: '00000000-0000-4000-8000-000000000000' }),
      404,
      'not_found',
    );
    expectProblem(await hold('a-token-that-names-no-hold-000000000000'), 404, 'not_found');

    const other = await createAccount(stack, { tier: 'business' });
    expectProblem(
      await stack.http.get(`/api/rdv/services/${shop.serviceId}/waitlist`).set(other.auth),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.get(`/api/rdv/services/${shop.serviceId}/waitlist?limit=0`).set(owner.auth),
      400,
      'validation_failed',
    );
  });
});
