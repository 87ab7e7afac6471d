import { addMember, createAccount, type Account } from '../../support/factories';
import { createEmployee, setSchedule } from '../../support/hr';
import { expectFieldErrors, expectProblem, linkToken, mailsTo } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

/** Mondays far ahead (2030-01-07 is a Monday; Paris is UTC+1 in January). */
const MONDAY = '2030-01-07';
const ALL_WEEK = Object.fromEntries(['1', '2', '3', '4', '5', '6', '7'].map((d) => [d, ['09:00-18:00']]));

describe('core: booking', () => {
  let stack: TestStack;
  let owner: Account;
  let slug: string;
  let serviceId: string;
  let staffId: string;

  beforeAll(async () => {
    // Twenty racers book from one address here; the hourly booking limits have their own tests (storefrontBooking).
    stack = await startStack({ workers: false, env: { RATE_LIMIT_BOOKINGS_PER_IP_HOUR: '1000' } });
    owner = await createAccount(stack, { tier: 'business' });
    const business = (await stack.http.get('/api/businesses').set(owner.auth)).body as { id: string };
    slug = `shop-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const published = await stack.http
      .patch(`/api/businesses/${business.id}`)
      .set(owner.auth)
      .send({ publicSlug: slug, publicProfile: { published: true, headline: 'Coiffure' } });
    expect(published.status).toBe(200);
    const service = await stack.http
      .post('/api/rdv/services')
      .set(owner.auth)
      .send({ name: 'Coupe', durationMinutes: 30, priceCents: 2500, bufferAfterMinutes: 15 });
    expect(service.status).toBe(201);
    serviceId = service.body.id;
    const staff = await stack.http.post('/api/rdv/staff').set(owner.auth).send({
      displayName: 'Alice',
      email: 'alice.private@example.test',
      phone: '+33 6 12 34 56 78',
      weeklyHours: ALL_WEEK,
    });
    expect(staff.status).toBe(201);
    staffId = staff.body.id;
  });
  afterAll(() => stack.close());

  const book = (start: string, extra: Record<string, unknown> = {}) =>
    stack.http
      .post('/api/appointments')
      .set(owner.auth)
      .send({ serviceId, staffId, start, ...extra });

  it('manages the catalogue and refuses bad input', async () => {
    const group = await stack.http
      .post('/api/rdv/service-groups')
      .set(owner.auth)
      .send({ name: 'Cheveux', sortOrder: 1 });
    expect(group.status).toBe(201);
    const patched = await stack.http
      .patch(`/api/rdv/services/${serviceId}`)
      .set(owner.auth)
      .send({ groupId: group.body.id });
    expect(patched.body.groupId).toBe(group.body.id);
    expect((await stack.http.get('/api/rdv/services').set(owner.auth)).body.items).toHaveLength(1);
    expect((await stack.http.get('/api/rdv/service-groups').set(owner.auth)).body.items).toHaveLength(1);
    expect((await stack.http.get(`/api/rdv/staff/${staffId}`).set(owner.auth)).body).toMatchObject({
      displayName: 'Alice',
      userId: null,
      employeeId: null,
    });
    expectFieldErrors(
      await stack.http
        .post('/api/rdv/services')
        .set(owner.auth)
        .send({ name: '', durationMinutes: 2, priceCents: -1, currency: 'XXXX', capacity: 0 }),
      'name',
      'durationMinutes',
      'priceCents',
      'currency',
      'capacity',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rdv/staff')
        .set(owner.auth)
        .send({ displayName: 'B', weeklyHours: { '8': ['09:00-10:00'], '1': ['10:00-09:00'] }, email: 'nope' }),
      'weeklyHours',
      'email',
    );
    expectFieldErrors(
      await stack.http.post(`/api/rdv/staff/${staffId}/link`).set(owner.auth).send({ employeeId: 'x' }),
      'employeeId',
    );
    expectProblem(
      await stack.http
        .post(`/api/rdv/staff/${staffId}/link`)
        .set(owner.auth)
        .send({ employeeId: '00000000-0000-4000-8000-000000000000' }),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.get('/api/rdv/services/00000000-0000-4000-8000-000000000000').set(owner.auth),
      404,
      'not_found',
    );
    const member = await addMember(stack, owner, 'member');
    expect((await stack.http.get('/api/rdv/services').set(member.auth)).status).toBe(200);
    expectProblem(
      await stack.http.post('/api/rdv/service-groups').set(member.auth).send({ name: 'x' }),
      403,
      'permission_denied',
    );
  });

  it('books, refuses overlaps with 409 slot_taken, moves statuses and cancels', async () => {
    const a = await book(`${MONDAY}T09:00:00Z`, {
      attendee: { name: 'Jean Client', email: 'jean.client@example.test' },
      notes: 'first',
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      status: 'booked',
      endAt: `${MONDAY}T09:30:00.000Z`,
      blockedUntil: `${MONDAY}T09:45:00.000Z`,
      source: 'staff',
    });
    expect(a.body.customerId).toBeTruthy();
    // The buffer after holds 09:30-09:45.
    expectProblem(await book(`${MONDAY}T09:40:00Z`), 409, 'slot_taken');
    const b = await book(`${MONDAY}T09:45:00Z`, { customerId: a.body.customerId });
    expect(b.status).toBe(201);
    // Rescheduling onto the other one: refused by the database too.
    expectProblem(
      await stack.http
        .patch(`/api/appointments/${a.body.id}`)
        .set(owner.auth)
        .send({ start: `${MONDAY}T09:30:00Z` }),
      409,
      'slot_taken',
    );
    const moved = await stack.http
      .patch(`/api/appointments/${a.body.id}`)
      .set(owner.auth)
      .send({ start: `${MONDAY}T08:00:00Z` });
    expect(moved.body).toMatchObject({ startAt: `${MONDAY}T08:00:00.000Z`, blockedUntil: `${MONDAY}T08:45:00.000Z` });
    expectProblem(
      await stack.http.patch(`/api/appointments/${a.body.id}`).set(owner.auth).send({ status: 'completed' }),
      409,
      'invalid_transition',
    );
    expect(
      (await stack.http.patch(`/api/appointments/${a.body.id}`).set(owner.auth).send({ status: 'confirmed' })).body
        .status,
    ).toBe('confirmed');
    expect(
      (await stack.http.patch(`/api/appointments/${a.body.id}`).set(owner.auth).send({ status: 'completed' })).body
        .status,
    ).toBe('completed');
    expectProblem(await stack.http.delete(`/api/appointments/${a.body.id}`).set(owner.auth), 409, 'invalid_transition');
    const cancelled = await stack.http.delete(`/api/appointments/${b.body.id}`).set(owner.auth);
    expect(cancelled.body).toMatchObject({ status: 'cancelled' });
    expect((await stack.http.delete(`/api/appointments/${b.body.id}`).set(owner.auth)).status).toBe(200);
    // The cancelled time is free again.
    expect((await book(`${MONDAY}T09:45:00Z`)).status).toBe(201);

    const page = await stack.http
      .get(`/api/appointments?from=${MONDAY}T00:00:00Z&to=${MONDAY}T23:00:00Z&limit=2`)
      .set(owner.auth);
    expect(page.body.items.map((i: { startAt: string }) => i.startAt)).toEqual([
      `${MONDAY}T08:00:00.000Z`,
      `${MONDAY}T09:45:00.000Z`,
    ]);
    const next = await stack.http
      .get(`/api/appointments?from=${MONDAY}T00:00:00Z&to=${MONDAY}T23:00:00Z&limit=2&cursor=${page.body.nextCursor}`)
      .set(owner.auth);
    expect(next.body.items.map((i: { status: string }) => i.status)).toEqual(['booked']);
    const live = await stack.http
      .get(`/api/appointments?status=booked,confirmed&customerId=${a.body.customerId}`)
      .set(owner.auth);
    expect(live.body.items).toHaveLength(0);
    // On the customer's timeline.
    const timeline = await stack.http.get(`/api/customers/${a.body.customerId}/timeline`).set(owner.auth);
    expect(timeline.status).toBe(200);
    expect(timeline.body.items.filter((i: { source: string }) => i.source === 'appointment')).toHaveLength(2);

    expectFieldErrors(
      await stack.http
        .post('/api/appointments')
        .set(owner.auth)
        .send({ serviceId: 'x', staffId, start: 'tomorrow', attendee: { name: '', email: 'no' } }),
      'serviceId',
      'start',
    );
    // Not an object where the attendee goes (an array of them included): 400 on attendee, and nothing booked.
    for (const attendee of [[], [{ name: 'Ann', email: 'ann@example.test' }], 'ann@example.test', 42]) {
      expectFieldErrors(await book(`${MONDAY}T12:00:00Z`, { attendee }), 'attendee');
    }
    expect((await book(`${MONDAY}T12:00:00Z`, { attendee: { name: 'Ann', email: 'ann@example.test' } })).status).toBe(
      201,
    );
    expectFieldErrors(
      await book(`${MONDAY}T12:30:00Z`, { attendee: { name: ['Ann'], email: { value: 'ann@example.test' } } }),
      'attendee.name',
      'attendee.email',
    );
    expectProblem(
      await stack.http
        .post('/api/appointments')
        .set(owner.auth)
        .send([{ serviceId, staffId, start: `${MONDAY}T12:30:00Z` }]),
      400,
      'validation_failed',
    );
    expectFieldErrors(
      await stack.http.get('/api/appointments?status=maybe&from=yesterday').set(owner.auth),
      'status',
      'from',
    );
    expectFieldErrors(
      await stack.http.patch(`/api/appointments/${a.body.id}`).set(owner.auth).send({ status: 'done' }),
      'status',
    );
    expectProblem(
      await stack.http.get('/api/appointments/00000000-0000-4000-8000-000000000000').set(owner.auth),
      404,
      'not_found',
    );
  });

  it('shows the storefront without tenant id or private staff data', async () => {
    const res = await stack.http.get(`/api/public/stores/${slug.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      publicSlug: slug,
      headline: 'Coiffure',
      timeZone: 'Europe/Paris',
      services: [{ id: serviceId, name: 'Coupe' }],
      staff: [{ id: staffId, displayName: 'Alice' }],
    });
    for (const secret of [owner.tenantId, 'alice.private', '12 34 56', owner.user.id])
      expect(res.text).not.toContain(secret);
    expect(res.text).not.toMatch(/tenant|employeeId|userId/i);
    expectProblem(await stack.http.get('/api/public/stores/no-such-store-here'), 404, 'not_found');
  });

  it('offers slots in the business zone, also across the DST change, and books online once per slot', async () => {
    const avail = await stack.http.get(
      `/api/public/stores/${slug}/availability?serviceId=${serviceId}&from=2030-03-30T00:00:00Z&to=2030-04-01T00:00:00Z`,
    );
    expect(avail.status).toBe(200);
    const starts = avail.body.slots.map((s: { start: string }) => s.start);
    // Paris: 09:00 is 08:00Z on Saturday 30 March 2030 and 07:00Z on Sunday 31 (summer time).
    expect(starts[0]).toBe('2030-03-30T08:00:00.000Z');
    expect(starts).toContain('2030-03-31T07:00:00.000Z');
    expect(starts).not.toContain('2030-03-31T06:45:00.000Z');
    expect(avail.body.slots[0].staffIds).toEqual([staffId]);
    expect(avail.text).not.toContain(owner.tenantId);

    const start = '2030-03-30T10:00:00.000Z';
    const stamp = Date.now();
    const email = (i: number) => `racer.${i}.${stamp}@example.test`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.http
          .post(`/api/public/stores/${slug}/bookings`)
          .send({ name: `Racer ${i}`, email: email(i), phone: '+33 6 00 00 00 00', serviceId, start }),
      ),
    );
    const won = answers.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409 && r.body.code === 'slot_taken')).toHaveLength(19);
    const booking = won[0].body;
    expect(booking).toMatchObject({
      status: 'booked',
      startAt: start,
      staffId,
      staffName: 'Alice',
      serviceName: 'Coupe',
    });
    expect(won[0].text).not.toContain(owner.tenantId);
    const winner = answers.indexOf(won[0]);
    const [mail] = await mailsTo(stack, email(winner), 'booking_confirmation');
    expect(linkToken(mail)).toBe(booking.manageToken);
    expect(mail.text).toContain(booking.reference);
    const after = await stack.http.get(
      `/api/public/stores/${slug}/availability?serviceId=${serviceId}&from=2030-03-30T09:00:00Z&to=2030-03-30T11:30:00Z`,
    );
    // 10:00-10:30 booked, 15 min of buffer after; a slot's own buffer after must clear 10:00 too.
    expect(after.body.slots.map((s: { start: string }) => s.start.slice(11, 16))).toEqual([
      '09:00',
      '09:15',
      '10:45',
      '11:00',
    ]);

    // The manage link: read, reschedule to a free slot (not a taken one), cancel.
    const manage = `/api/public/stores/${slug}/bookings/${booking.manageToken}`;
    expect((await stack.http.get(manage)).body).toMatchObject({ reference: booking.reference, status: 'booked' });
    expectProblem(await stack.http.patch(manage).send({ start: '2030-03-30T10:07:00Z' }), 409, 'slot_taken');
    expect((await stack.http.patch(manage).send({ start: '2030-03-30T10:15:00Z' })).body).toMatchObject({
      startAt: '2030-03-30T10:15:00.000Z',
    });
    expect((await stack.http.delete(manage)).body).toMatchObject({ status: 'cancelled' });
    expectProblem(await stack.http.patch(manage).send({ start: '2030-03-30T10:15:00Z' }), 409, 'invalid_transition');
    expectProblem(await stack.http.get(`/api/public/stores/${slug}/bookings/${'x'.repeat(43)}`), 404, 'not_found');

    // Without `to`: the week from `from`, the same answer as asking it explicitly.
    const week = await stack.http.get(
      `/api/public/stores/${slug}/availability?serviceId=${serviceId}&from=2030-03-25T00:00:00Z`,
    );
    expect(week.status).toBe(200);
    expect(week.body.slots.map((s: { start: string }) => s.start)).toContain('2030-03-31T07:00:00.000Z');
    expect(week.body).toEqual(
      (
        await stack.http.get(
          `/api/public/stores/${slug}/availability?serviceId=${serviceId}&from=2030-03-25T00:00:00Z&to=2030-04-01T00:00:00Z`,
        )
      ).body,
    );
    expectFieldErrors(
      await stack.http.get(`/api/public/stores/${slug}/availability?serviceId=nope&from=x&to=2030-01-01T00:00:00Z`),
      'serviceId',
      'from',
    );
    expectFieldErrors(
      await stack.http.get(
        `/api/public/stores/${slug}/availability?serviceId=${serviceId}&from=2030-01-01T00:00:00Z&to=2030-06-01T00:00:00Z`,
      ),
      'to',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/public/stores/${slug}/bookings`)
        .send({ name: '', email: 'x', serviceId, start: 'soon' }),
      'name',
      'email',
      'start',
    );
    expectFieldErrors(
      await stack.http
        .post(`/api/public/stores/${slug}/bookings`)
        .send({ name: ['Racer'], email: [email(0)], phone: {}, serviceId, start }),
      'name',
      'email',
      'phone',
    );
    expectProblem(
      await stack.http
        .post(`/api/public/stores/${slug}/bookings`)
        .send([{ name: 'Racer', email: email(0), serviceId, start }]),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http
        .post(`/api/public/stores/${slug}/bookings`)
        .send({ name: 'Late', email: 'late@example.test', serviceId, start: '2030-03-30T03:00:00Z' }),
      409,
      'slot_taken',
    );
  });

  it('takes the hours of a linked HR employee: granted leave removes slots', async () => {
    const employee = await createEmployee(stack, owner, { firstName: 'Bob', lastName: 'Martin' });
    await setSchedule(stack, owner, employee.id, '2020-01-06');
    const staff = await stack.http.post('/api/rdv/staff').set(owner.auth).send({ displayName: 'Bob', weeklyHours: {} });
    expect(
      (await stack.http.post(`/api/rdv/staff/${staff.body.id}/link`).set(owner.auth).send({ employeeId: employee.id }))
        .body.employeeId,
    ).toBe(employee.id);
    const slotsOn = async (day: string) => {
      const res = await stack.http.get(
        `/api/public/stores/${slug}/availability?serviceId=${serviceId}&staffId=${staff.body.id}&from=${day}T00:00:00Z&to=${day}T23:00:00Z`,
      );
      expect(res.status).toBe(200);
      return res.body.slots as { start: string }[];
    };
    // Tuesday 8 January 2030: 09:00-12:30 and 13:30-17:00 in Paris.
    const before = await slotsOn('2030-01-08');
    expect(before[0].start).toBe('2030-01-08T08:00:00.000Z');
    expect(before.length).toBeGreaterThan(10);
    const type = await stack.http
      .post('/api/rh/leave-types')
      .set(owner.auth)
      .send({ code: 'absence', name: 'Absence', paid: false, tracksBalance: false });
    expect(type.status).toBe(201);
    const leave = await stack.http
      .post(`/api/rh/employees/${employee.id}/leave-requests`)
      .set(owner.auth)
      .send({ leaveTypeId: type.body.id, startDate: '2030-01-08', endDate: '2030-01-08' });
    expect(leave.status).toBe(201);
    expect(
      (
        await stack.http
          .patch(`/api/rh/leave-requests/${leave.body.id}/decision`)
          .set(owner.auth)
          .send({ decision: 'grant' })
      ).status,
    ).toBe(200);
    expect(await slotsOn('2030-01-08')).toEqual([]);
    expect((await slotsOn('2030-01-09')).length).toBe(before.length);
    // Year 9999 (anonymous): the day after would be year 10000, which PostgreSQL refuses; 400, not 500.
    expectFieldErrors(
      await stack.http.get(
        `/api/public/stores/${slug}/availability?serviceId=${serviceId}&staffId=${staff.body.id}&from=9999-12-30T00:00:00Z`,
      ),
      'from',
    );
    expectFieldErrors(
      await stack.http.post(`/api/public/stores/${slug}/bookings`).send({
        name: 'Far',
        email: 'far@example.test',
        serviceId,
        staffId: staff.body.id,
        start: '9999-12-30T09:00:00Z',
      }),
      'start',
    );
  });

  it('keeps one slot grid for working time across midnight, whatever `from`, and books what it offers', async () => {
    // Monday 22:10 to Tuesday 02:00 in Paris (21:10Z to 01:00Z): one interval, one grid from 21:10Z.
    const night = await stack.http
      .post('/api/rdv/staff')
      .set(owner.auth)
      .send({ displayName: 'Night', weeklyHours: { '1': ['22:10-24:00'], '2': ['00:00-02:00'] } });
    const starts = async (from: string) => {
      const res = await stack.http.get(
        `/api/public/stores/${slug}/availability?serviceId=${serviceId}&staffId=${night.body.id}&from=${from}&to=2030-01-08T02:00:00Z`,
      );
      expect(res.status).toBe(200);
      return (res.body.slots as { start: string }[]).map((s) => s.start.slice(11, 16));
    };
    expect(await starts(`${MONDAY}T00:00:00Z`)).toEqual([
      '21:10',
      '21:25',
      '21:40',
      '21:55',
      '22:10',
      '22:25',
      '22:40',
      '22:55',
      '23:10',
      '23:25',
      '23:40',
      '23:55',
      '00:10',
      '00:25',
    ]);
    // From local midnight, or mid-interval: the same grid.
    expect(await starts(`${MONDAY}T23:00:00Z`)).toEqual(['23:10', '23:25', '23:40', '23:55', '00:10', '00:25']);
    expect(await starts('2030-01-08T00:05:00Z')).toEqual(['00:10', '00:25']);
    const booked = await stack.http.post(`/api/public/stores/${slug}/bookings`).send({
      name: 'Owl',
      email: 'owl@example.test',
      serviceId,
      staffId: night.body.id,
      start: `${MONDAY}T23:25:00.000Z`,
    });
    expect(booked.status).toBe(201);
    const manage = `/api/public/stores/${slug}/bookings/${booked.body.manageToken}`;
    expect((await stack.http.patch(manage).send({ start: '2030-01-08T00:10:00Z' })).body.startAt).toBe(
      '2030-01-08T00:10:00.000Z',
    );
    // Rescheduling needs the staff member and the service still offered, as booking does.
    expect(
      (await stack.http.patch(`/api/rdv/staff/${night.body.id}`).set(owner.auth).send({ active: false })).status,
    ).toBe(200);
    expectProblem(await stack.http.patch(manage).send({ start: `${MONDAY}T23:25:00Z` }), 404, 'not_found');
    expect((await stack.http.get(manage)).body.startAt).toBe('2030-01-08T00:10:00.000Z');
  });

  it('applies the booking rules to an edited appointment: capacity and the services a staff member performs', async () => {
    const color = await stack.http
      .post('/api/rdv/services')
      .set(owner.auth)
      .send({ name: 'Couleur', durationMinutes: 60, priceCents: 6000, capacity: 2 });
    const cutter = await stack.http
      .post('/api/rdv/staff')
      .set(owner.auth)
      .send({ displayName: 'Cutter', weeklyHours: ALL_WEEK, serviceIds: [serviceId] });
    const a = await stack.http
      .post('/api/appointments')
      .set(owner.auth)
      .send({ serviceId, staffId: cutter.body.id, start: '2030-02-04T09:00:00Z' });
    expect(a.status).toBe(201);
    const edit = (body: Record<string, unknown>) =>
      stack.http.patch(`/api/appointments/${a.body.id}`).set(owner.auth).send(body);
    expectFieldErrors(await edit({ partySize: 2 }), 'partySize');
    expectFieldErrors(await edit({ serviceId: color.body.id }), 'serviceId');
    const colored = await stack.http
      .post('/api/appointments')
      .set(owner.auth)
      .send({ serviceId: color.body.id, staffId, start: '2030-02-04T09:00:00Z', partySize: 2 });
    expect(colored.status).toBe(201);
    expectFieldErrors(
      await stack.http.patch(`/api/appointments/${colored.body.id}`).set(owner.auth).send({ staffId: cutter.body.id }),
      'staffId',
    );
    // Nothing changed; what the rules allow still passes.
    expect((await stack.http.get(`/api/appointments/${a.body.id}`).set(owner.auth)).body).toMatchObject({
      serviceId,
      partySize: 1,
    });
    expect((await edit({ partySize: 1, start: '2030-02-04T10:00:00Z' })).body).toMatchObject({
      partySize: 1,
      startAt: '2030-02-04T10:00:00.000Z',
    });
    expect(
      (await stack.http.patch(`/api/appointments/${colored.body.id}`).set(owner.auth).send({ partySize: 1, serviceId }))
        .body,
    ).toMatchObject({ serviceId, partySize: 1 });
  });
  it('applies date overrides and closures (local on the DST day), daily caps, the horizon and booking questions', async () => {
    const care = await stack.http
      .post('/api/rdv/services')
      .set(owner.auth)
      .send({
        name: 'Soin',
        durationMinutes: 60,
        priceCents: 4000,
        questions: [{ id: 'hair', label: 'Hair length', kind: 'choice', options: ['short', 'long'], required: true }],
      });
    expect(care.status).toBe(201);
    expect(care.body).toMatchObject({ maxAdvanceDays: null, questions: [{ id: 'hair', required: true }] });
    // Sunday 31 March 2030 is the spring change: 10:00 in Paris is 08:00Z that day.
    const rules = await stack.http
      .post('/api/rdv/staff')
      .set(owner.auth)
      .send({
        displayName: 'Rules',
        weeklyHours: ALL_WEEK,
        serviceIds: [care.body.id],
        dateOverrides: { '2030-03-31': ['10:00-12:00'], '2030-04-01': [] },
        maxPerDay: 1,
      });
    expect(rules.status).toBe(201);
    expect(rules.body).toMatchObject({ maxPerDay: 1, maxPerWeek: null, dateOverrides: { '2030-04-01': [] } });
    const starts = async (from: string, to: string) =>
      (
        await stack.http.get(
          `/api/public/stores/${slug}/availability?serviceId=${care.body.id}&staffId=${rules.body.id}&from=${from}&to=${to}`,
        )
      ).body.slots.map((s: { start: string }) => s.start.slice(5, 16));
    expect(await starts('2030-03-31T00:00:00Z', '2030-04-02T00:00:00Z')).toEqual([
      '03-31T08:00',
      '03-31T08:15',
      '03-31T08:30',
      '03-31T08:45',
      '03-31T09:00',
    ]);
    const bookCare = (answers?: Record<string, string>) =>
      stack.http.post(`/api/public/stores/${slug}/bookings`).send({
        name: 'Nina',
        email: 'nina@example.test',
        serviceId: care.body.id,
        staffId: rules.body.id,
        start: '2030-03-31T08:30:00Z',
        ...(answers ? { answers } : {}),
      });
    expectFieldErrors(await bookCare(), 'answers');
    expectFieldErrors(await bookCare({ hair: 'blue' }), 'answers');
    const booked = await bookCare({ hair: 'long' });
    expect(booked.status).toBe(201);
    const appointments = await stack.http
      .get(`/api/appointments?staffId=${rules.body.id}&from=2030-03-31T00:00:00Z&to=2030-04-01T00:00:00Z`)
      .set(owner.auth);
    expect(appointments.body.items).toMatchObject([{ answers: { hair: 'long' } }]);
    // One a day: the rest of that day is gone, the next open day is not.
    expect(await starts('2030-03-31T00:00:00Z', '2030-04-01T00:00:00Z')).toEqual([]);
    expect((await starts('2030-04-02T07:00:00Z', '2030-04-02T08:00:00Z'))[0]).toBe('04-02T07:00');
    // A horizon of two years keeps 2030 off the storefront; clearing it brings the slots back.
    const horizon = (maxAdvanceDays: number | null) =>
      stack.http.patch(`/api/rdv/services/${care.body.id}`).set(owner.auth).send({ maxAdvanceDays });
    expect((await horizon(730)).body.maxAdvanceDays).toBe(730);
    expect(await starts('2030-04-02T07:00:00Z', '2030-04-02T08:00:00Z')).toEqual([]);
    expect((await horizon(null)).body.maxAdvanceDays).toBeNull();
    expect(await starts('2030-04-02T07:00:00Z', '2030-04-02T08:00:00Z')).toHaveLength(1);
    expectFieldErrors(
      await stack.http
        .patch(`/api/rdv/staff/${rules.body.id}`)
        .set(owner.auth)
        .send({ dateOverrides: { '2030-13-01': [] }, maxPerDay: 0 }),
      'dateOverrides',
      'maxPerDay',
    );
    expectFieldErrors(
      await stack.http
        .patch(`/api/rdv/services/${care.body.id}`)
        .set(owner.auth)
        .send({ questions: [{ id: 'x', label: 'X', kind: 'choice', required: true }], maxAdvanceDays: 0 }),
      'questions',
      'maxAdvanceDays',
    );
  });
});
