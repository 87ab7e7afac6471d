import { Appointment } from '../../../entities/core/booking';
import { VisitorToken } from '../../../entities/core/visitor';
import { sendDueReminders } from '../../../domain/core/booking/reminders';
import { createAccount, type Account } from '../../support/factories';
import { expectFieldErrors, expectProblem, linkToken, mailsTo } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

const ALL_WEEK = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, ['09:00-18:00']]));

/** Storefront visitors: magic-link sign-in (single use, expiry, hashed), their bookings, reminders. */
describe('core: booking visitors', () => {
  let stack: TestStack;
  let owner: Account;
  let slug: string;
  let serviceId: string;
  let staffId: string;

  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'business' });
    const business = (await stack.http.get('/api/businesses').set(owner.auth)).body as { id: string };
    slug = `visit-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
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
        .send({ name: 'Massage', durationMinutes: 60, priceCents: 6000 })
    ).body.id;
    staffId = (
      await stack.http
        .post('/api/rdv/staff')
        .set(owner.auth)
        .send({ displayName: 'Dana', email: 'dana.private@example.test', weeklyHours: ALL_WEEK })
    ).body.id;
  });
  afterAll(() => stack.close());

  const requestLink = (email: string, publicSlug = slug) =>
    stack.http.post('/api/public/auth/request-link').send({ publicSlug, email });
  const verify = (token: string) => stack.http.post('/api/public/auth/verify').send({ token });
  const me = (token: string) => stack.http.get('/api/public/auth/me').set('Authorization', `Bearer ${token}`);

  it('signs a visitor in once with a mailed link and lists their bookings', async () => {
    const email = `visitor.${Date.now()}@example.test`;
    const booked = await stack.http
      .post(`/api/public/stores/${slug}/bookings`)
      .send({ name: 'Vera Visitor', email, serviceId, start: '2030-02-04T09:00:00Z' });
    expect(booked.status).toBe(201);
    // Same answer for an address with bookings and one without.
    const asked = await requestLink(email.toUpperCase());
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ status: 'sign_in_link_sent' });
    expect((await requestLink(`nobody.${Date.now()}@example.test`)).body).toEqual({ status: 'sign_in_link_sent' });

    const [mail] = await mailsTo(stack, email, 'booking_sign_in');
    expect(mail.text).toContain(`/book/${slug}/sign-in?token=`);
    const token = linkToken(mail);
    // Only the hash is stored.
    const stored = await stack.services.orm.em.fork().find(VisitorToken, { email }, { filters: false });
    expect(stored.map((t) => t.tokenHash)).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);

    // Exactly one of concurrent verifications wins; the link is then dead.
    const answers = await Promise.all(Array.from({ length: 5 }, () => verify(token)));
    const won = answers.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    for (const r of answers.filter((a) => a.status !== 200)) expectProblem(r, 401, 'visitor_link_invalid');
    expectProblem(await verify(token), 401, 'visitor_link_invalid');
    const session = won[0].body;
    expect(session).toMatchObject({ email, store: { publicSlug: slug } });
    expect(won[0].text).not.toContain(owner.tenantId);

    const mine = await me(session.sessionToken);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({
      email,
      store: { publicSlug: slug },
      bookings: [{ reference: booked.body.reference, status: 'booked', staffName: 'Dana', serviceName: 'Massage' }],
    });
    for (const secret of [owner.tenantId, 'dana.private', owner.user.id]) expect(mine.text).not.toContain(secret);

    // Signing out ends the session.
    expect(
      (await stack.http.delete('/api/public/auth/me').set('Authorization', `Bearer ${session.sessionToken}`)).status,
    ).toBe(204);
    expectProblem(await me(session.sessionToken), 401, 'visitor_session_invalid');
  });

  it('refuses an expired link, an expired session and bad input', async () => {
    const email = `late.${Date.now()}@example.test`;
    expect((await requestLink(email)).status).toBe(202);
    const token = linkToken((await mailsTo(stack, email, 'booking_sign_in'))[0]);
    const em = stack.services.orm.em.fork();
    await em.nativeUpdate(
      VisitorToken,
      { email, kind: 'link' },
      { expiresAt: new Date(Date.now() - 1000) },
      { filters: false },
    );
    expectProblem(await verify(token), 401, 'visitor_link_invalid');

    expect((await requestLink(email)).status).toBe(202);
    const fresh = linkToken((await mailsTo(stack, email, 'booking_sign_in'))[1]);
    const session = (await verify(fresh)).body.sessionToken as string;
    expect((await me(session)).status).toBe(200);
    await em.nativeUpdate(
      VisitorToken,
      { email, kind: 'session' },
      { expiresAt: new Date(Date.now() - 1000) },
      { filters: false },
    );
    expectProblem(await me(session), 401, 'visitor_session_invalid');
    // A session token is not a link, and a link token is not a session.
    expectProblem(await verify(session), 401, 'visitor_link_invalid');
    expectProblem(await me(fresh), 401, 'visitor_session_invalid');
    expectProblem(await stack.http.get('/api/public/auth/me'), 401, 'visitor_session_invalid');
    expectProblem(
      await stack.http.get('/api/public/auth/me').set('Authorization', 'Bearer short'),
      401,
      'visitor_session_invalid',
    );

    expectFieldErrors(
      await stack.http.post('/api/public/auth/request-link').send({ publicSlug: '', email: 'nope' }),
      'publicSlug',
      'email',
    );
    expectFieldErrors(await verify('short'), 'token');
    expectFieldErrors(await stack.http.post('/api/public/auth/verify').send({}), 'token');
    expectProblem(await requestLink(email, 'no-such-store-anywhere'), 404, 'not_found');
  });

  it('limits link requests per address', async () => {
    const limited = await startStack({
      sharing: stack,
      workers: false,
      env: { ...stack.env, RATE_LIMIT_AUTH_PER_MINUTE: '2' },
    });
    try {
      const email = `flood.${Date.now()}@example.test`;
      const ask = () => limited.http.post('/api/public/auth/request-link').send({ publicSlug: slug, email });
      expect((await ask()).status).toBe(202);
      expect((await ask()).status).toBe(202);
      expectProblem(await ask(), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('mails one reminder a day ahead, again after a reschedule', async () => {
    const email = `remind.${Date.now()}@example.test`;
    const start = '2030-03-04T10:00:00.000Z';
    const booked = await stack.http
      .post(`/api/public/stores/${slug}/bookings`)
      .send({ name: 'Remi', email, serviceId, start });
    expect(booked.status).toBe(201);
    const at = (iso: string) => new Date(iso);
    expect(await sendDueReminders(stack.services, at('2030-03-02T10:00:00Z'))).toBe(0);
    expect(await sendDueReminders(stack.services, at('2030-03-03T12:00:00Z'))).toBe(1);
    expect(await sendDueReminders(stack.services, at('2030-03-03T12:05:00Z'))).toBe(0);
    const [reminder] = await mailsTo(stack, email, 'booking_reminder');
    expect(reminder.subject).toContain('Massage');
    expect(reminder.text).toContain(booked.body.reference);
    expect(reminder.text).toContain(`/book/${slug}/sign-in`);
    expect(reminder.status).toBe('queued');

    // Moved to the next day: reminded again for the new time.
    const manage = `/api/public/stores/${slug}/bookings/${booked.body.manageToken}`;
    expect((await stack.http.patch(manage).send({ start: '2030-03-05T10:00:00Z' })).status).toBe(200);
    expect(await sendDueReminders(stack.services, at('2030-03-04T12:00:00Z'))).toBe(1);
    // Cancelled ones and ones without an address are never reminded.
    const cancelled = await stack.http
      .post(`/api/public/stores/${slug}/bookings`)
      .send({ name: 'Cancel', email: `c.${email}`, serviceId, start: '2030-03-06T12:00:00Z' });
    expect((await stack.http.delete(`/api/public/stores/${slug}/bookings/${cancelled.body.manageToken}`)).status).toBe(
      200,
    );
    expect(
      (
        await stack.http
          .post('/api/appointments')
          .set(owner.auth)
          .send({ serviceId, staffId, start: '2030-03-06T14:00:00Z' })
      ).status,
    ).toBe(201);
    expect(await sendDueReminders(stack.services, at('2030-03-05T13:00:00Z'))).toBe(0);
    const appointment = await stack.services.orm.em
      .fork()
      .findOneOrFail(Appointment, { attendeeEmail: email }, { filters: false });
    expect(appointment.reminderSentAt).not.toBeNull();
  });
});
