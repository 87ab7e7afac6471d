import ICAL from 'ical.js';
import { addMember, createAccount, type Account } from '../../support/factories';
import { createEmployee, setSchedule } from '../../support/hr';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

/** 2030-01-07 is a Monday; Paris is UTC+1 in January. */
const DAY = '2030-01-07';
const WEEK = Object.fromEntries(['1', '2', '3', '4', '5'].map((d) => [d, ['09:00-18:00']]));

describe('core: booking calendar', () => {
  let stack: TestStack;
  let owner: Account;
  let member: Account;
  let serviceId: string;
  let staffId: string;

  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { CALDAV_URL: 'https://dav.example.test/' } });
    owner = await createAccount(stack, { tier: 'business' });
    member = await addMember(stack, owner, 'member');
    serviceId = (
      await stack.http
        .post('/api/rdv/services')
        .set(owner.auth)
        .send({ name: 'Coupe', durationMinutes: 30, priceCents: 2500, bufferAfterMinutes: 15 })
    ).body.id;
    const staff = await stack.http
      .post('/api/rdv/staff')
      .set(owner.auth)
      .send({ displayName: 'Alice', weeklyHours: WEEK });
    staffId = staff.body.id;
    expect(
      (await stack.http.post(`/api/rdv/staff/${staffId}/link`).set(owner.auth).send({ userId: member.user.id })).status,
    ).toBe(200);
  });
  afterAll(() => stack.close());

  const slots = async (day: string) => {
    const res = await stack.http.get(`/api/rdv/services/${serviceId}`).set(owner.auth);
    expect(res.status).toBe(200);
    const business = (await stack.http.get('/api/businesses').set(owner.auth)).body as {
      id: string;
      publicSlug: string | null;
    };
    if (!business.publicSlug) {
      const slug = `cal-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
      expect(
        (
          await stack.http
            .patch(`/api/businesses/${business.id}`)
            .set(owner.auth)
            .send({ publicSlug: slug, publicProfile: { published: true } })
        ).status,
      ).toBe(200);
      business.publicSlug = slug;
    }
    const avail = await stack.http.get(
      `/api/public/stores/${business.publicSlug}/availability?serviceId=${serviceId}&staffId=${staffId}&from=${day}T00:00:00Z&to=${day}T23:00:00Z`,
    );
    expect(avail.status).toBe(200);
    return (avail.body.slots as { start: string }[]).map((s) => s.start.slice(11, 16));
  };

  it('creates, lists, edits and deletes my events; busy ones remove my staff slots', async () => {
    const before = await slots(DAY);
    expect(before[0]).toBe('08:00');
    const created = await stack.http
      .post('/api/calendar/events')
      .set(member.auth)
      .send({ title: 'Dentist', startAt: `${DAY}T08:00:00Z`, endAt: `${DAY}T09:00:00Z`, location: 'Rue X' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      ownerId: member.user.id,
      staffId: null,
      busy: true,
      allDay: false,
      location: 'Rue X',
    });
    expect(created.headers.location).toBe(`/api/calendar/events/${created.body.id}`);
    // 08:00-09:00Z taken: the first free slot starts at 09:00Z.
    expect((await slots(DAY))[0]).toBe('09:00');

    const list = await stack.http
      .get(`/api/calendar/events?from=${DAY}T00:00:00Z&to=${DAY}T23:59:00Z`)
      .set(member.auth);
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([created.body.id]);
    // Another member's events are not theirs to see or touch.
    expect((await stack.http.get('/api/calendar/events').set(owner.auth)).body.items).toHaveLength(0);
    expectProblem(
      await stack.http.patch(`/api/calendar/events/${created.body.id}`).set(owner.auth).send({ title: 'x' }),
      404,
      'not_found',
    );
    expectProblem(await stack.http.delete(`/api/calendar/events/${created.body.id}`).set(owner.auth), 404, 'not_found');

    const free = await stack.http
      .patch(`/api/calendar/events/${created.body.id}`)
      .set(member.auth)
      .send({ busy: false, location: null });
    expect(free.body).toMatchObject({ busy: false, location: null, title: 'Dentist' });
    expect((await slots(DAY))[0]).toBe('08:00');

    // All day: local midnight to local midnight in Paris.
    const allDay = await stack.http
      .post('/api/calendar/events')
      .set(member.auth)
      .send({ title: 'Off', startAt: `${DAY}T12:00:00Z`, endAt: `${DAY}T13:00:00Z`, allDay: true });
    expect(allDay.body).toMatchObject({
      startAt: '2030-01-06T23:00:00.000Z',
      endAt: '2030-01-07T23:00:00.000Z',
      allDay: true,
    });
    expect(await slots(DAY)).toEqual([]);
    expect((await stack.http.delete(`/api/calendar/events/${allDay.body.id}`).set(member.auth)).status).toBe(204);
    expect((await slots(DAY))[0]).toBe('08:00');
    expectProblem(await stack.http.get(`/api/calendar/events/${allDay.body.id}`).set(member.auth), 404, 'not_found');

    // Naming another staff member takes core.appointments.manage.
    const other = await stack.http
      .post('/api/rdv/staff')
      .set(owner.auth)
      .send({ displayName: 'Bob', weeklyHours: WEEK });
    expectProblem(
      await stack.http
        .post('/api/calendar/events')
        .set(member.auth)
        .send({ title: 'x', startAt: `${DAY}T08:00:00Z`, endAt: `${DAY}T09:00:00Z`, staffId: other.body.id }),
      403,
      'permission_denied',
    );
    expect(
      (
        await stack.http
          .post('/api/calendar/events')
          .set(owner.auth)
          .send({ title: 'Block Bob', startAt: `${DAY}T08:00:00Z`, endAt: `${DAY}T09:00:00Z`, staffId: other.body.id })
      ).status,
    ).toBe(201);
  });

  it('refuses bad input', async () => {
    expectFieldErrors(
      await stack.http
        .post('/api/calendar/events')
        .set(member.auth)
        .send({ title: '', startAt: 'soon', endAt: `${DAY}T09:00:00Z`, busy: 'yes' }),
      'title',
      'startAt',
      'busy',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/calendar/events')
        .set(member.auth)
        .send({ title: 'Backwards', startAt: `${DAY}T09:00:00Z`, endAt: `${DAY}T08:00:00Z` }),
      'endAt',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/calendar/events')
        .set(member.auth)
        .send({ title: 'Long', startAt: '2030-01-01T00:00:00Z', endAt: '2032-01-01T00:00:00Z' }),
      'endAt',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/calendar/events')
        .set(member.auth)
        .send({ title: 'x', startAt: `${DAY}T08:00:00Z`, endAt: `${DAY}T09:00:00Z`, staffId: 'nope' }),
      'staffId',
    );
    expectProblem(
      await stack.http
        .post('/api/calendar/events')
        .set(member.auth)
        .send({
          title: 'x',
          startAt: `${DAY}T08:00:00Z`,
          endAt: `${DAY}T09:00:00Z`,
          staffId: '00000000-0000-4000-8000-000000000000',
        }),
      404,
      'not_found',
    );
    expectFieldErrors(
      await stack.http.get('/api/calendar/events?from=yesterday&limit=0').set(member.auth),
      'from',
      'limit',
    );
    expectFieldErrors(
      await stack.http.get('/api/calendar/free-busy?from=x&to=2030-01-01T00:00:00Z&staffIds=a,b').set(member.auth),
      'from',
      'staffIds',
    );
    expectFieldErrors(
      await stack.http
        .get('/api/calendar/free-busy?from=2030-01-01T00:00:00Z&to=2030-06-01T00:00:00Z')
        .set(member.auth),
      'to',
    );
    expectProblem(
      await stack.http
        .get(
          '/api/calendar/free-busy?from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z&staffIds=00000000-0000-4000-8000-000000000000',
        )
        .set(member.auth),
      404,
      'not_found',
    );
    expectFieldErrors(await stack.http.get('/api/calendar/events/not-a-uuid').set(member.auth), 'id');
    expectProblem(await stack.http.get('/api/calendar/feed/nothing-here.ics'), 404, 'not_found');
    expectFieldErrors(await stack.http.get('/api/calendar/feed/x'), 'token');
  });

  it('answers free/busy with appointments, events and HR leave', async () => {
    const day = '2030-01-14';
    const employee = await createEmployee(stack, owner, { firstName: 'Carla', lastName: 'Leave' });
    await setSchedule(stack, owner, employee.id, '2020-01-06');
    const carla = await stack.http
      .post('/api/rdv/staff')
      .set(owner.auth)
      .send({ displayName: 'Carla', weeklyHours: {} });
    await stack.http
      .post(`/api/rdv/staff/${carla.body.id}/link`)
      .set(owner.auth)
      .send({ employeeId: employee.id, userId: owner.user.id });
    const type = await stack.http
      .post('/api/rh/leave-types')
      .set(owner.auth)
      .send({ code: 'abs-fb', name: 'Absence', paid: false, tracksBalance: false });
    const leave = await stack.http
      .post(`/api/rh/employees/${employee.id}/leave-requests`)
      .set(owner.auth)
      .send({ leaveTypeId: type.body.id, startDate: '2030-01-15', endDate: '2030-01-15', endHalf: 'morning' });
    expect(leave.status).toBe(201);
    expect(
      (
        await stack.http
          .patch(`/api/rh/leave-requests/${leave.body.id}/decision`)
          .set(owner.auth)
          .send({ decision: 'grant' })
      ).status,
    ).toBe(200);
    expect(
      (
        await stack.http
          .post('/api/appointments')
          .set(owner.auth)
          .send({ serviceId, staffId: carla.body.id, start: `${day}T10:00:00Z` })
      ).status,
    ).toBe(201);
    expect(
      (
        await stack.http
          .post('/api/calendar/events')
          .set(owner.auth)
          .send({ title: 'Meeting', startAt: `${day}T14:00:00Z`, endAt: `${day}T15:00:00Z` })
      ).status,
    ).toBe(201);
    expect(
      (
        await stack.http
          .post('/api/calendar/events')
          .set(owner.auth)
          .send({ title: 'Free', startAt: `${day}T16:00:00Z`, endAt: `${day}T17:00:00Z`, busy: false })
      ).status,
    ).toBe(201);

    const res = await stack.http
      .get(`/api/calendar/free-busy?from=${day}T00:00:00Z&to=2030-01-16T00:00:00Z&staffIds=${carla.body.id}`)
      .set(member.auth);
    expect(res.status).toBe(200);
    expect(res.body.timeZone).toBe('Europe/Paris');
    expect(res.body.staff).toEqual([
      {
        staffId: carla.body.id,
        displayName: 'Carla',
        busy: [
          { start: `${day}T10:00:00.000Z`, end: `${day}T10:45:00.000Z`, kind: 'appointment' },
          { start: `${day}T14:00:00.000Z`, end: `${day}T15:00:00.000Z`, kind: 'event' },
          // The morning of Tuesday 15 in Paris: 00:00 to 13:00 local.
          { start: '2030-01-14T23:00:00.000Z', end: '2030-01-15T12:00:00.000Z', kind: 'leave' },
        ],
      },
    ]);
    expect(res.text).not.toMatch(/Meeting/);
    const all = await stack.http
      .get(`/api/calendar/free-busy?from=${day}T00:00:00Z&to=2030-01-16T00:00:00Z`)
      .set(member.auth);
    expect(all.body.staff.map((s: { displayName: string }) => s.displayName)).toEqual(['Alice', 'Bob', 'Carla']);
    // Year 9999: the day after the range would be year 10000 ("+010000-01-01", which PostgreSQL refuses): 400.
    expectFieldErrors(
      await stack.http
        .get(`/api/calendar/free-busy?from=9999-12-30T00:00:00Z&to=9999-12-31T00:00:00Z&staffIds=${carla.body.id}`)
        .set(member.auth),
      'from',
    );
    const last = await stack.http
      .get(`/api/calendar/free-busy?from=9998-12-30T00:00:00Z&to=9998-12-31T23:00:00Z&staffIds=${carla.body.id}`)
      .set(member.auth);
    expect(last.body.staff[0].busy).toEqual([]);
  });

  it('publishes my calendar as an iCalendar feed with a revocable address', async () => {
    const info = await stack.http.get('/api/calendar/sync-info').set(member.auth);
    expect(info.status).toBe(200);
    expect(info.body.caldav).toEqual({
      url: 'https://dav.example.test/dav/',
      username: member.email,
    });
    expect((await stack.http.get('/api/calendar/sync-info').set(member.auth)).body.feedUrl).toBe(info.body.feedUrl);
    const path = new URL(info.body.feedUrl as string).pathname;
    // The feed covers the year ahead: dates five weeks from now.
    const d = new Date(Date.now() + 35 * 86_400_000).toISOString().slice(0, 10);
    const next = new Date(Date.parse(d) + 86_400_000).toISOString().slice(0, 10);
    const after = new Date(Date.parse(d) + 2 * 86_400_000).toISOString().slice(0, 10);

    await stack.http
      .post('/api/calendar/events')
      .set(member.auth)
      .send({
        title: 'Team; lunch, long',
        startAt: `${d}T11:00:00Z`,
        endAt: `${d}T12:00:00Z`,
        description: 'Line 1\nLine 2',
      });
    await stack.http
      .post('/api/calendar/events')
      .set(member.auth)
      .send({ title: 'Holiday', startAt: `${next}T10:00:00Z`, endAt: `${next}T11:00:00Z`, allDay: true });
    const booked = await stack.http
      .post('/api/appointments')
      .set(owner.auth)
      .send({
        serviceId,
        staffId,
        start: `${d}T09:00:00Z`,
        attendee: { name: 'Jean Feed', email: 'jean.feed@example.test' },
      });
    expect(booked.status).toBe(201);

    const feed = await stack.http.get(path);
    expect(feed.status).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    // RFC 5545 §3.1, byte by byte: every content line, the last one included, ends with CRLF (no bare CR or LF)
    // and is folded to at most 75 octets.
    const bytes = Buffer.from(feed.text, 'utf8');
    expect(bytes.subarray(-15).toString()).toBe('END:VCALENDAR\r\n');
    const lines = bytes.toString('utf8').split('\r\n');
    expect(lines.pop()).toBe('');
    expect(lines.filter((l) => /[\r\n]/.test(l) || Buffer.byteLength(l) > 75)).toEqual([]);
    // Parsed back by another library (ical.js, Mozilla's RFC 5545 parser).
    const calendar = new ICAL.Component(ICAL.parse(feed.text));
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const bySummary = new Map(events.map((e) => [e.summary, e]));
    const lunch = bySummary.get('Team; lunch, long')!;
    expect(lunch.startDate.toJSDate().toISOString()).toBe(`${d}T11:00:00.000Z`);
    expect(lunch.description).toBe('Line 1\nLine 2');
    const holiday = bySummary.get('Holiday')!;
    expect(holiday.startDate.isDate).toBe(true);
    expect(holiday.startDate.toString()).toBe(next);
    expect(holiday.endDate.toString()).toBe(after);
    const appointment = bySummary.get('Coupe: Jean Feed')!;
    expect(appointment.uid).toBe(`appointment-${booked.body.id}@platform-suite`);
    expect(appointment.endDate.toJSDate().toISOString()).toBe(`${d}T09:30:00.000Z`);
    // Nobody else's events: the owner's "Meeting" is not in the member's feed.
    expect(bySummary.has('Meeting')).toBe(false);

    // Rotation kills the old address at once; revocation kills the new one.
    const rotated = await stack.http.post('/api/calendar/sync-info/rotate').set(member.auth);
    expect(rotated.body.feedUrl).not.toBe(info.body.feedUrl);
    expectProblem(await stack.http.get(path), 404, 'not_found');
    const newPath = new URL(rotated.body.feedUrl as string).pathname;
    expect((await stack.http.get(newPath)).status).toBe(200);
    // A forged secret for the same feed id: 404.
    expectProblem(
      await stack.http.get(newPath.replace(/\.[A-Za-z0-9_-]{43}\.ics$/, `.${'A'.repeat(43)}.ics`)),
      404,
      'not_found',
    );
    expect((await stack.http.delete('/api/calendar/sync-info').set(member.auth)).status).toBe(204);
    expectProblem(await stack.http.get(newPath), 404, 'not_found');
  });

  it('keeps organisations apart (404)', async () => {
    const stranger = await createAccount(stack, { tier: 'business' });
    const mine = await stack.http
      .post('/api/calendar/events')
      .set(owner.auth)
      .send({ title: 'Mine', startAt: `${DAY}T08:00:00Z`, endAt: `${DAY}T09:00:00Z` });
    expectProblem(await stack.http.get(`/api/calendar/events/${mine.body.id}`).set(stranger.auth), 404, 'not_found');
    expectProblem(
      await stack.http.patch(`/api/calendar/events/${mine.body.id}`).set(stranger.auth).send({ title: 'x' }),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http
        .get(`/api/calendar/free-busy?from=${DAY}T00:00:00Z&to=2030-01-08T00:00:00Z&staffIds=${staffId}`)
        .set(stranger.auth),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http
        .post('/api/calendar/events')
        .set(stranger.auth)
        .send({ title: 'x', startAt: `${DAY}T08:00:00Z`, endAt: `${DAY}T09:00:00Z`, staffId }),
      404,
      'not_found',
    );
    const appointments = await stack.http.get('/api/appointments').set(owner.auth);
    const id = appointments.body.items[0].id as string;
    expectProblem(await stack.http.get(`/api/appointments/${id}`).set(stranger.auth), 404, 'not_found');
    expectProblem(
      await stack.http.patch(`/api/appointments/${id}`).set(stranger.auth).send({ status: 'confirmed' }),
      404,
      'not_found',
    );
    expectProblem(await stack.http.delete(`/api/appointments/${id}`).set(stranger.auth), 404, 'not_found');
    expectProblem(
      await stack.http.patch(`/api/rdv/staff/${staffId}`).set(stranger.auth).send({ displayName: 'x' }),
      404,
      'not_found',
    );
    expectProblem(await stack.http.delete(`/api/rdv/services/${serviceId}`).set(stranger.auth), 404, 'not_found');
    expectProblem(
      await stack.http
        .post('/api/appointments')
        .set(stranger.auth)
        .send({ serviceId, staffId, start: `${DAY}T12:00:00Z` }),
      404,
      'not_found',
    );
    expect((await stack.http.get('/api/appointments').set(stranger.auth)).body.items).toEqual([]);
  });
});
