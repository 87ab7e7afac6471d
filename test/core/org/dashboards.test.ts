import { newId } from '../../../entities/base';
import { addMember, createAccount, type Account } from '../../support/factories';
import { makeDeal, makePipeline } from '../../support/crm';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import { customerOf, draft, issued } from '../invoices/support';
import { invoicingOrg } from '../invoices/support';

describe('core: dashboard summary and dashboards', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await invoicingOrg(stack);
  });
  afterAll(() => stack.close());

  const sql = (q: string, params: unknown[]) => stack.services.orm.em.fork().getConnection().execute(q, params);

  it('sums known data per figure, in the business time zone', async () => {
    const t = owner.tenantId;
    // Appointments: two today (one cancelled), one tomorrow, one yesterday.
    const service = await stack.http
      .post('/api/rdv/services')
      .set(owner.auth)
      .send({ name: 'Cut', durationMinutes: 30, priceCents: 2500 });
    const staff = await stack.http.post('/api/rdv/staff').set(owner.auth).send({ displayName: 'Alice' });
    expect([service.status, staff.status]).toEqual([201, 201]);
    const [bounds] = await sql(
      `select date_trunc('day', now() at time zone 'Europe/Paris') at time zone 'Europe/Paris' as d`,
      [],
    );
    const dayStart = new Date(bounds.d).getTime();
    const appt = (offsetHours: number, status: string) =>
      sql(
        `insert into booking_appointments (id, tenant_id, created_at, updated_at, service_id, staff_id, start_at, end_at, blocked_from, blocked_until, status) values (?, ?, now(), now(), ?, ?, ?, ?, ?, ?, ?)`,
        [
          newId(),
          t,
          service.body.id,
          staff.body.id,
          ...[0, 0.5, 0, 0.5].map((h) => new Date(dayStart + (offsetHours + h) * 3_600_000)),
          status,
        ],
      );
    await appt(23, 'booked');
    await appt(22, 'cancelled');
    await appt(25, 'booked');
    await appt(-2, 'completed');

    // Follow-ups: one overdue task, one done, one note (not a follow-up).
    const customer = await customerOf(stack, owner);
    const act = (body: object) =>
      stack.http.post(`/api/customers/${customer.id}/activities`).set(owner.auth).send(body);
    expect(
      (await act({ type: 'task', subject: 'Call back', dueAt: new Date(Date.now() - 86_400_000).toISOString() }))
        .status,
    ).toBe(201);
    expect((await act({ type: 'task', subject: 'Done', completed: true })).status).toBe(201);
    expect((await act({ type: 'note', subject: 'Just a note' })).status).toBe(201);

    // Invoices: two issued (unpaid), one draft (not counted).
    await issued(stack, owner, customer.id);
    await issued(stack, owner, customer.id);
    await draft(stack, owner, customer.id);

    // Deals: two open in the first stage, one in the second.
    const pipeline = await makePipeline(stack, owner);
    await makeDeal(stack, owner, { title: 'A', customerId: customer.id, stageId: pipeline.stages[0].id, amount: 1000 });
    await makeDeal(stack, owner, { title: 'B', customerId: customer.id, stageId: pipeline.stages[0].id, amount: 500 });
    await makeDeal(stack, owner, { title: 'C', customerId: customer.id, stageId: pipeline.stages[1].id, amount: 200 });

    // VR: one session this week, one a month ago.
    const vr = (startedAt: Date) =>
      sql(
        `insert into vr_sessions (id, tenant_id, created_at, room_id, room_name, simulation, simulation_steps, host_user_id, status, started_at) values (?, ?, now(), ?, 'Room', 'sim', 3, ?, 'ended', ?)`,
        [newId(), t, newId(), owner.user.id, startedAt],
      );
    await vr(new Date());
    await vr(new Date(Date.now() - 30 * 86_400_000));

    const res = await stack.http.get('/api/dashboard/summary').set(owner.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      timeZone: 'Europe/Paris',
      appointmentsToday: { total: 1, cancelled: 1, completed: 0 },
      openTasks: { open: 1, overdue: 1 },
      unpaidInvoices: { count: 2, overdueCount: 0, amounts: [{ currency: 'EUR', amountDueCents: 48_000 }] },
      storage: { usedBytes: 0, reservedBytes: 0 },
      vrSessionsThisWeek: { count: 1, running: 0 },
    });
    const stages = res.body.dealsByStage.filter((s: { pipelineId: string }) => s.pipelineId === pipeline.id);
    expect(stages.slice(0, 2).map((s: { count: number; amount: number }) => [s.count, s.amount])).toEqual([
      [2, 1500],
      [1, 200],
    ]);
    expect(new Date(res.body.dayStart).getTime()).toBe(dayStart);
  });

  it('leaves out figures of modules not in use and of permissions not held', async () => {
    const free = await createAccount(stack, { tier: 'free' });
    const body = (await stack.http.get('/api/dashboard/summary').set(free.auth)).body;
    expect(body.vrSessionsThisWeek).toBeNull();
    expect(body.appointmentsToday).not.toBeNull();
    // A role with no permission sees only the figures without one.
    expect(
      (await stack.http.post('/rbac/roles').set(owner.auth).send({ key: 'desk', name: 'Desk', permissions: [] }))
        .status,
    ).toBe(201);
    const desk = await addMember(stack, owner, 'desk');
    const seen = (await stack.http.get('/api/dashboard/summary').set(desk.auth)).body;
    expect(seen).toMatchObject({
      openTasks: null,
      unpaidInvoices: null,
      dealsByStage: null,
      storage: null,
      vrSessionsThisWeek: null,
    });
    expect(seen.appointmentsToday).toMatchObject({ total: 1 });
  });

  it('reads a zone PostgreSQL does not know (stored before settings checked it) as UTC', async () => {
    const other = await createAccount(stack, { tier: 'pro' });
    expect((await stack.http.get('/api/businesses').set(other.auth)).status).toBe(200);
    await sql(`update core_businesses set time_zone = 'US/Pacific-New' where tenant_id = ?`, [other.tenantId]);
    const res = await stack.http.get('/api/dashboard/summary').set(other.auth);
    expect([res.status, res.body.timeZone]).toEqual([200, 'UTC']);
    const [bounds] = await sql(`select date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' as d`, []);
    expect(new Date(res.body.dayStart).getTime()).toBe(new Date(bounds.d).getTime());
  });

  it('keeps dashboards and widgets per member, with a catalogue and layout', async () => {
    const catalogue = (await stack.http.get('/api/dashboards/widget-catalogue').set(owner.auth)).body.items as {
      type: string;
      dataRoute: string;
      available: boolean;
    }[];
    // Every widget's data comes from a route of the published API.
    const doc = (await stack.http.get('/openapi.json')).body as { paths: Record<string, unknown> };
    for (const w of catalogue) expect(Object.keys(doc.paths)).toContain(w.dataRoute);
    expect(catalogue.every((w) => w.available)).toBe(true);

    const first = await stack.http.post('/api/dashboards').set(owner.auth).send({ name: 'Home' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'Home', columns: 12, isDefault: true, widgets: [] });
    const second = (await stack.http.post('/api/dashboards').set(owner.auth).send({ name: 'Sales', isDefault: true }))
      .body;
    expect(second.isDefault).toBe(true);
    const list = (await stack.http.get('/api/dashboards').set(owner.auth)).body.items;
    expect(list.map((d: { name: string; isDefault: boolean }) => [d.name, d.isDefault])).toEqual([
      ['Sales', true],
      ['Home', false],
    ]);

    const add = (body: object) => stack.http.post(`/api/dashboards/${second.id}/widgets`).set(owner.auth).send(body);
    const a = await add({ type: 'unpaid_invoices' });
    expect(a.status).toBe(201);
    expect(a.body.widgets[0]).toMatchObject({ type: 'unpaid_invoices', x: 0, y: 0, w: 4, h: 2, settings: {} });
    const b = (await add({ type: 'deals_by_stage', title: 'Pipeline' })).body.widgets[1];
    expect(b).toMatchObject({ y: 2, w: 8 });
    expectFieldErrors(await add({ type: 'pipeline_board' }), 'settings.pipelineId');
    expectFieldErrors(await add({ type: 'chess' }), 'type');
    expectFieldErrors(await add({ type: 'open_tasks', x: 10, w: 4 }), 'x');
    expectFieldErrors(await add({ type: 'open_tasks', x: -1, w: 0, h: 99, settings: [] }), 'x', 'w', 'h', 'settings');

    const moved = await stack.http
      .put(`/api/dashboards/${second.id}/layout`)
      .set(owner.auth)
      .send({ widgets: [{ id: b.id, x: 4, y: 0, w: 8, h: 3 }] });
    expect(moved.status).toBe(200);
    expect(moved.body.widgets.find((w: { id: string }) => w.id === b.id)).toMatchObject({ x: 4, y: 0, h: 3 });
    expectProblem(
      await stack.http
        .put(`/api/dashboards/${second.id}/layout`)
        .set(owner.auth)
        .send({ widgets: [{ id: newId(), x: 0, y: 0, w: 1, h: 1 }] }),
      404,
      'not_found',
    );
    expectFieldErrors(
      await stack.http.patch(`/api/dashboards/${second.id}`).set(owner.auth).send({ columns: 6 }),
      'columns',
    );
    expect(
      (
        await stack.http
          .patch(`/api/dashboards/${second.id}/widgets/${b.id}`)
          .set(owner.auth)
          .send({ title: null, x: 0 })
      ).body.widgets.find((w: { id: string }) => w.id === b.id),
    ).toMatchObject({ title: null, x: 0 });
    expect((await stack.http.delete(`/api/dashboards/${second.id}/widgets/${b.id}`).set(owner.auth)).status).toBe(204);

    // A member without the permission cannot add the widget; nobody else sees my dashboards.
    const desk = await addMember(stack, owner, 'desk');
    const theirs = (await stack.http.post('/api/dashboards').set(desk.auth).send({ name: 'Mine' })).body;
    expect(theirs.isDefault).toBe(true);
    expectProblem(
      await stack.http.post(`/api/dashboards/${theirs.id}/widgets`).set(desk.auth).send({ type: 'unpaid_invoices' }),
      403,
      'widget_not_available',
    );
    expect(
      (
        await stack.http
          .post(`/api/dashboards/${theirs.id}/widgets`)
          .set(desk.auth)
          .send({ type: 'appointments_today' })
      ).status,
    ).toBe(201);
    expectProblem(await stack.http.get(`/api/dashboards/${second.id}`).set(desk.auth), 404, 'not_found');
    expectProblem(
      await stack.http.delete(`/api/dashboards/${second.id}/widgets/${a.body.widgets[0].id}`).set(desk.auth),
      404,
      'not_found',
    );

    expect((await stack.http.delete(`/api/dashboards/${second.id}`).set(owner.auth)).status).toBe(204);
    expectProblem(await stack.http.get(`/api/dashboards/${second.id}`).set(owner.auth), 404, 'not_found');
  });

  it("refuses widget settings naming no resource of the organisation: another organisation's or an unknown pipeline, a setting the type does not take", async () => {
    const d = (await stack.http.post('/api/dashboards').set(owner.auth).send({ name: 'Boards' }).expect(201)).body as {
      id: string;
    };
    const add = (body: object) => stack.http.post(`/api/dashboards/${d.id}/widgets`).set(owner.auth).send(body);
    const mine = await makePipeline(stack, owner, 'Mine');
    const theirs = await makePipeline(stack, await createAccount(stack, { tier: 'pro' }), 'Theirs');
    const board = await add({ type: 'pipeline_board', settings: { pipelineId: mine.id } });
    expect(board.status).toBe(201);
    const widget = board.body.widgets[0] as { id: string };
    expect(widget).toMatchObject({ type: 'pipeline_board', settings: { pipelineId: mine.id } });

    for (const pipelineId of [theirs.id, newId(), 'not-a-uuid'])
      expectFieldErrors(await add({ type: 'pipeline_board', settings: { pipelineId } }), 'settings.pipelineId');
    const edit = (settings: object) =>
      stack.http.patch(`/api/dashboards/${d.id}/widgets/${widget.id}`).set(owner.auth).send({ settings });
    expectFieldErrors(await edit({ pipelineId: theirs.id }), 'settings.pipelineId');
    // A setting its type does not take (each one that names a resource is declared and checked): refused, not stored.
    expectFieldErrors(
      await add({ type: 'deals_by_stage', settings: { pipelineId: theirs.id } }),
      'settings.pipelineId',
    );
    expectFieldErrors(await edit({ pipelineId: mine.id, customerId: newId() }), 'settings.customerId');
    expect((await stack.http.get(`/api/dashboards/${d.id}`).set(owner.auth)).body.widgets).toEqual([
      expect.objectContaining({ id: widget.id, settings: { pipelineId: mine.id } }),
    ]);
  });

  it('creates concurrent dashboards of a member with one default, never past the limit', async () => {
    const member = await addMember(stack, owner, 'member');
    // Concurrent first creations all counted none and claimed the default: the unique index refused all but one (409).
    const first = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        stack.http
          .post('/api/dashboards')
          .set(member.auth)
          .send({ name: `D${i}` }),
      ),
    );
    expect(first.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(first.filter((r) => r.body.isDefault)).toHaveLength(1);
    const rest = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        stack.http
          .post('/api/dashboards')
          .set(member.auth)
          .send({ name: `E${i}`, isDefault: i % 2 === 0 }),
      ),
    );
    expect(rest.filter((r) => r.status === 201)).toHaveLength(16);
    rest.filter((r) => r.status !== 201).forEach((r) => expectProblem(r, 409, 'dashboard_limit'));
    const list = (await stack.http.get('/api/dashboards').set(member.auth)).body.items as { isDefault: boolean }[];
    expect([list.length, list.filter((d) => d.isDefault).length]).toEqual([20, 1]);
  });

  it('never lets concurrent adds pass the widget limit', async () => {
    const d = (await stack.http.post('/api/dashboards').set(owner.auth).send({ name: 'Crowded' }).expect(201)).body as {
      id: string;
    };
    const add = () =>
      stack.http.post(`/api/dashboards/${d.id}/widgets`).set(owner.auth).send({ type: 'onboarding', w: 1, h: 1 });
    for (let i = 0; i < 45; i++) expect((await add()).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 10 }, add));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    answers.filter((a) => a.status !== 201).forEach((a) => expectProblem(a, 409, 'widget_limit'));
    expect((await stack.http.get(`/api/dashboards/${d.id}`).set(owner.auth)).body.widgets).toHaveLength(50);
  });

  it('refuses bad input and answers 404 across organisations', async () => {
    expectFieldErrors(
      await stack.http.post('/api/dashboards').set(owner.auth).send({ name: ' ', columns: 0, isDefault: 'yes' }),
      'name',
      'columns',
      'isDefault',
    );
    expect((await stack.http.get('/api/dashboards/not-a-uuid').set(owner.auth)).status).toBe(400);
    const mine = (await stack.http.post('/api/dashboards').set(owner.auth).send({ name: 'Ops' })).body;
    const other = await createAccount(stack);
    expectProblem(await stack.http.get(`/api/dashboards/${mine.id}`).set(other.auth), 404, 'not_found');
    expectProblem(
      await stack.http.patch(`/api/dashboards/${mine.id}`).set(other.auth).send({ name: 'x' }),
      404,
      'not_found',
    );
    expectProblem(
      await stack.http.post(`/api/dashboards/${mine.id}/widgets`).set(other.auth).send({ type: 'onboarding' }),
      404,
      'not_found',
    );
    expectProblem(await stack.http.delete(`/api/dashboards/${mine.id}`).set(other.auth), 404, 'not_found');
  });
});
