import { loadPunches } from '../../domain/hr/timeline';
import { complianceQueue } from '../../queues/hr';
import { createEmployee, hrOrg, punchAt, type HrOrg } from '../support/hr';
import { addMember, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('HR clock events: immutable punches and corrections', () => {
  let stack: TestStack;
  let org: HrOrg;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await hrOrg(stack);
  });
  afterAll(() => stack.close());

  const sql = (text: string, params: unknown[] = []) => stack.services.orm.em.fork().execute(text, params);
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

  it("records the member's own punches at the server time", async () => {
    const before = Date.now();
    const res = await stack.http
      .post('/api/rh/clock-events')
      .set(org.member.auth)
      .send({ kind: 'in', source: 'mobile' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      employeeId: org.memberEmployee.id,
      kind: 'in',
      source: 'mobile',
      timeZone: 'Europe/Paris',
      recordedBy: org.member.user.id,
      corrected: false,
      corrections: [],
      effective: { kind: 'in', at: res.body.at },
    });
    expect(Date.parse(res.body.at)).toBeGreaterThanOrEqual(before - 1000);
    // A member may neither back-date nor punch for someone else; an account without a record cannot punch.
    const other = await createEmployee(stack, org.owner);
    expectProblem(
      await stack.http
        .post('/api/rh/clock-events')
        .set(org.member.auth)
        .send({ kind: 'out', at: hoursAgo(1) }),
      403,
      'permission_denied',
    );
    expectProblem(
      await stack.http.post('/api/rh/clock-events').set(org.member.auth).send({ kind: 'out', employeeId: other.id }),
      403,
      'permission_denied',
    );
    expectProblem(
      await stack.http.post('/api/rh/clock-events').set(org.owner.auth).send({ kind: 'in' }),
      403,
      'no_employee_record',
    );
  });

  it('refuses a direct SQL UPDATE, DELETE or TRUNCATE of a clock event (database trigger)', async () => {
    const event = await punchAt(stack, org.owner, org.memberEmployee.id, 'in', hoursAgo(30));
    await expect(sql('update hr_clock_events set at = now() where id = ?', [event.id])).rejects.toThrow(
      /append-only: UPDATE refused/,
    );
    await expect(sql('delete from hr_clock_events where id = ?', [event.id])).rejects.toThrow(
      /append-only: DELETE refused/,
    );
    // The app's role may not truncate at all (test/platform/databaseRoles.test.ts); the trigger refuses even the owner.
    await expect((await stack.asOwner()).em.fork().execute('truncate hr_clock_events')).rejects.toThrow(
      /append-only: TRUNCATE refused/,
    );
    const [row] = await sql('select at from hr_clock_events where id = ?', [event.id]);
    expect(new Date((row as { at: Date }).at).toISOString()).toBe(event.at);
  });

  it('keeps the correction trail and shows the effective timeline', async () => {
    const e = await createEmployee(stack, org.owner);
    const entry = await punchAt(stack, org.owner, e.id, 'in', hoursAgo(10));
    const exit = await punchAt(stack, org.owner, e.id, 'in', hoursAgo(2));
    expect(entry).toMatchObject({ source: 'manual', note: 'entered by test', recordedBy: org.owner.user.id });
    // The exit was punched as an entry: fix the kind, then the time; then void the entry and amend it back.
    const first = await stack.http
      .post(`/api/rh/clock-events/${exit.id}/corrections`)
      .set(org.owner.auth)
      .send({ action: 'amend', kind: 'out', reason: 'pressed the wrong button' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: exit.id,
      kind: 'in',
      at: exit.at,
      corrected: true,
      effective: { kind: 'out', at: exit.at },
    });
    const newAt = hoursAgo(3);
    const second = await stack.http
      .post(`/api/rh/clock-events/${exit.id}/corrections`)
      .set(org.owner.auth)
      .send({ action: 'amend', at: newAt, kind: 'out', reason: 'left earlier' });
    expect(second.body.effective).toEqual({ kind: 'out', at: newAt });
    expect(second.body.corrections.map((c: { reason: string; authorId: string }) => [c.reason, c.authorId])).toEqual([
      ['pressed the wrong button', org.owner.user.id],
      ['left earlier', org.owner.user.id],
    ]);
    const voided = await stack.http
      .post(`/api/rh/clock-events/${entry.id}/corrections`)
      .set(org.owner.auth)
      .send({ action: 'void', reason: 'duplicate' });
    expect(voided.body.effective).toBeNull();

    const list = await stack.http.get(`/api/rh/clock-events?employeeId=${e.id}`).set(org.owner.auth);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { id: string; kind: string; at: string }) => [i.id, i.kind, i.at])).toEqual([
      [entry.id, 'in', entry.at],
      [exit.id, 'in', exit.at],
    ]);
    expect(list.body.items[1].corrections).toHaveLength(2);
    expect(list.body.items[0].effective).toBeNull();
    // The originals are untouched in the database.
    const rows = (await sql('select kind from hr_clock_events where employee_id = ? order by id', [e.id])) as {
      kind: string;
    }[];
    expect(rows.map((r) => r.kind)).toEqual(['in', 'in']);
    await expect(
      sql('update hr_clock_corrections set reason = ? where clock_event_id = ?', ['x', exit.id]),
    ).rejects.toThrow(/append-only/);
    // A correction re-scans compliance.
    const jobs = await stack.services.queues.get(complianceQueue).getJobs(['waiting', 'delayed', 'prioritized']);
    expect(jobs.some((j) => j.data.employeeIds?.includes(e.id))).toBe(true);
  });

  it('applies corrections in order, each field taking its latest value', async () => {
    const e = await createEmployee(stack, org.owner);
    const punch = await punchAt(stack, org.owner, e.id, 'in', hoursAgo(10));
    const correct = async (body: object) =>
      (await stack.http.post(`/api/rh/clock-events/${punch.id}/corrections`).set(org.owner.auth).send(body)).body;
    const later = new Date(Date.parse(punch.at as string) + 30 * 60_000).toISOString();
    expect((await correct({ action: 'amend', at: later, reason: 'came at half past' })).effective).toEqual({
      kind: 'in',
      at: later,
    });
    // Kind only: the earlier corrected time stays (it used to fall back to the recorded one).
    expect((await correct({ action: 'amend', kind: 'out', reason: 'it was the exit' })).effective).toEqual({
      kind: 'out',
      at: later,
    });
    // Voided, then amended again: it stands with every field given so far.
    expect((await correct({ action: 'void', reason: 'duplicate?' })).effective).toBeNull();
    expect((await correct({ action: 'amend', kind: 'out', reason: 'not a duplicate' })).effective).toEqual({
      kind: 'out',
      at: later,
    });
    // The timelines (timesheets, compliance) read the same rule.
    const [read] = (await stack.http.get(`/api/rh/clock-events?employeeId=${e.id}`).set(org.owner.auth)).body.items;
    expect(read.effective).toEqual({ kind: 'out', at: later });
    const timeline = await loadPunches(
      stack.services.orm.em.fork(),
      [e.id],
      new Date(Date.now() - 86_400_000),
      new Date(),
    );
    expect(timeline.get(e.id)).toEqual([{ eventId: punch.id, kind: 'out', at: new Date(later), corrected: true }]);
  });

  it('filters the list and keeps members to their own punches', async () => {
    const e = await createEmployee(stack, org.owner);
    const old = await punchAt(stack, org.owner, e.id, 'in', hoursAgo(72));
    await punchAt(stack, org.owner, e.id, 'out', hoursAgo(70));
    const windowed = await stack.http
      .get(
        `/api/rh/clock-events?employeeId=${e.id}&from=${encodeURIComponent(hoursAgo(73))}&to=${encodeURIComponent(hoursAgo(71))}`,
      )
      .set(org.owner.auth);
    expect(windowed.body.items.map((i: { id: string }) => i.id)).toEqual([old.id]);
    const mine = await stack.http.get('/api/rh/clock-events').set(org.member.auth);
    expect(mine.body.items.every((i: { employeeId: string }) => i.employeeId === org.memberEmployee.id)).toBe(true);
    expectProblem(
      await stack.http.get(`/api/rh/clock-events?employeeId=${e.id}`).set(org.member.auth),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http
        .post(`/api/rh/clock-events/${old.id}/corrections`)
        .set(org.member.auth)
        .send({ action: 'void', reason: 'mine now' }),
      403,
      'permission_denied',
    );
  });

  it('refuses bad input on every clock route', async () => {
    const e = await createEmployee(stack, org.owner);
    expectFieldErrors(
      await stack.http
        .post('/api/rh/clock-events')
        .set(org.owner.auth)
        .send({ kind: 'lunch', employeeId: 'x', at: 'yesterday', source: 'fax', timeZone: 5, extra: true }),
      'kind',
      'employeeId',
      'at',
      'source',
      'timeZone',
      'extra',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/clock-events')
        .set(org.owner.auth)
        .send({ kind: 'in', employeeId: e.id, at: new Date(Date.now() + 3_600_000).toISOString(), note: 'x' }),
      'at',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/clock-events')
        .set(org.owner.auth)
        .send({ kind: 'in', employeeId: e.id, at: hoursAgo(1) }),
      'note',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/clock-events')
        .set(org.owner.auth)
        .send({ kind: 'in', employeeId: e.id, at: hoursAgo(24 * 100), note: 'x' }),
      'at',
    );
    expectFieldErrors(
      await stack.http
        .post('/api/rh/clock-events')
        .set(org.owner.auth)
        .send({ kind: 'in', employeeId: e.id, timeZone: 'Nowhere/Land' }),
      'timeZone',
    );
    expectProblem(
      await stack.http
        .post('/api/rh/clock-events')
        .set(org.owner.auth)
        .send({ kind: 'in', employeeId: '00000000-0000-4000-8000-000000000000' }),
      404,
      'not_found',
    );
    const event = await punchAt(stack, org.owner, e.id, 'in', hoursAgo(5));
    const correct = (body: object) =>
      stack.http.post(`/api/rh/clock-events/${event.id}/corrections`).set(org.owner.auth).send(body);
    expectFieldErrors(await correct({ action: 'move', reason: '' }), 'action', 'reason');
    expectFieldErrors(await correct({ action: 'amend', reason: 'nothing given' }), 'at');
    expectFieldErrors(await correct({ action: 'void', kind: 'out', reason: 'void with a kind' }), 'action');
    expectFieldErrors(await correct({ action: 'amend', at: hoursAgo(24 * 9), reason: 'too far back' }), 'at');
    expectProblem(
      await stack.http
        .post('/api/rh/clock-events/00000000-0000-4000-8000-000000000000/corrections')
        .set(org.owner.auth)
        .send({ action: 'void', reason: 'unknown' }),
      404,
      'not_found',
    );
    expectFieldErrors(
      await stack.http.get('/api/rh/clock-events?from=nope&limit=0').set(org.owner.auth),
      'from',
      'limit',
    );
  });

  // Regression (audit of the clock): a manager who is also an employee does not rewrite their own time records,
  // as leave refuses own_request / own_balance; another manager does it for them.
  describe("a manager's own clock events", () => {
    let own: HrOrg;
    let self: { id: string };
    let peer: Account;
    beforeAll(async () => {
      own = await hrOrg(stack);
      self = await createEmployee(stack, own.owner, { firstName: 'Ana', lastName: 'Boss', userId: own.owner.user.id });
      peer = await addMember(stack, own.owner, 'admin');
    });

    it("refuses a correction of the caller's own clock event; another manager corrects it", async () => {
      const punch = await stack.http.post('/api/rh/clock-events').set(own.owner.auth).send({ kind: 'in' });
      expect(punch.status).toBe(201);
      expect(punch.body.employeeId).toBe(self.id);
      // Moving their own entry three hours earlier (three hours of unworked time paid): refused, whatever the action.
      const earlier = new Date(Date.parse(punch.body.at) - 3 * 3_600_000).toISOString();
      const correct = (account: Account, body: object) =>
        stack.http.post(`/api/rh/clock-events/${punch.body.id}/corrections`).set(account.auth).send(body);
      expectProblem(
        await correct(own.owner, { action: 'amend', at: earlier, reason: 'forgot to punch' }),
        403,
        'own_clock_event',
      );
      expectProblem(await correct(own.owner, { action: 'void', reason: 'duplicate' }), 403, 'own_clock_event');
      const trail = await stack.http.get(`/api/rh/clock-events?employeeId=${self.id}`).set(own.owner.auth);
      expect(trail.body.items.find((i: { id: string }) => i.id === punch.body.id)).toMatchObject({
        corrected: false,
        corrections: [],
      });
      const byPeer = await correct(peer, { action: 'amend', at: earlier, reason: 'forgot to punch' });
      expect(byPeer.status).toBe(201);
      expect(byPeer.body).toMatchObject({
        effective: { kind: 'in', at: earlier },
        corrections: [{ authorId: peer.user.id }],
      });
    });

    it('refuses a backdated punch the caller enters for themselves; a punch now stays theirs to make', async () => {
      const at = hoursAgo(72);
      expectProblem(
        await stack.http.post('/api/rh/clock-events').set(own.owner.auth).send({ kind: 'in', at, note: 'came early' }),
        403,
        'own_clock_event',
      );
      expectProblem(
        await stack.http
          .post('/api/rh/clock-events')
          .set(own.owner.auth)
          .send({ kind: 'in', employeeId: self.id, at, note: 'came early' }),
        403,
        'own_clock_event',
      );
      // Without at (the server's time), or within the minute of clock skew tolerated: their own punch.
      expect((await stack.http.post('/api/rh/clock-events').set(own.owner.auth).send({ kind: 'out' })).status).toBe(
        201,
      );
      expect(
        (
          await stack.http
            .post('/api/rh/clock-events')
            .set(own.owner.auth)
            .send({ kind: 'in', at: new Date().toISOString(), note: 'now' })
        ).status,
      ).toBe(201);
      // Another manager enters it; the caller still enters past punches for others.
      expect(await punchAt(stack, peer, self.id, 'in', at)).toMatchObject({
        employeeId: self.id,
        at,
        source: 'manual',
        recordedBy: peer.user.id,
      });
      expect((await punchAt(stack, own.owner, own.memberEmployee.id, 'in', at)).recordedBy).toBe(own.owner.user.id);
    });
  });

  it("answers 404 for another organisation's clock event", async () => {
    const other = await hrOrg(stack);
    const event = await punchAt(stack, org.owner, org.memberEmployee.id, 'out', hoursAgo(29));
    expectProblem(
      await stack.http
        .post(`/api/rh/clock-events/${event.id}/corrections`)
        .set(other.owner.auth)
        .send({ action: 'void', reason: 'not mine' }),
      404,
      'not_found',
    );
    const listed = await stack.http
      .get(`/api/rh/clock-events?employeeId=${org.memberEmployee.id}`)
      .set(other.owner.auth);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([]);
  });
});
