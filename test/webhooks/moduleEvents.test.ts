import { Webhook } from 'standardwebhooks';
import { WebhookEvent } from '../../entities/webhooks/webhook';
import { customerOf, draft, invoicingOrg, issued } from '../core/invoices/support';
import { addMember, createAccount } from '../support/factories';
import { createEmployee, hrOrg, setSchedule } from '../support/hr';
import { startStack, type TestStack } from '../support/stack';
import type { Account } from '../support/factories';
import { eventually } from '../support/wait';
import { startReceiver } from '../support/webhookReceiver';
import { createArticle, createSpace } from '../support/knowledge';
import { createRoom, vrOrg } from '../support/vr';

/** Events of the modules, emitted through the outbox in the transaction of their change, to a subscribed endpoint. */
describe('module webhook events', () => {
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startStack({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
  });
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  /** An endpoint of the account's organisation for these types, at its own receiver path; returns its secret. */
  async function subscribe(account: Account, path: string, eventTypes: string[]): Promise<string> {
    const res = await stack.http
      .post('/api/webhooks/endpoints')
      .set(account.auth)
      .send({ url: receiver.url(path), eventTypes })
      .expect(201);
    return (res.body as { secret: string }).secret;
  }
  /** The deliveries made to a path, verified with the endpoint's secret by `standardwebhooks`. */
  const verified = (path: string, secret: string) =>
    receiver
      .on(path)
      .map(
        (r) =>
          new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: object },
      );
  /** The organisation's events of a type still in the outbox (the fan-out keeps those an endpoint wants). */
  /** A 30-minute service and one staff member of the owner's business. */
  const bookable = async (owner: Account) => {
    const service = await stack.http
      .post('/api/rdv/services')
      .set(owner.auth)
      .send({ name: 'Cut', durationMinutes: 30, priceCents: 1000 })
      .expect(201);
    const staff = await stack.http.post('/api/rdv/staff').set(owner.auth).send({ displayName: 'A' }).expect(201);
    return { service: service.body as { id: string }, staff: staff.body as { id: string } };
  };
  const eventsOf = (tenantId: string, type: string) =>
    stack.services.orm.em.fork().count(WebhookEvent, { tenantId, type }, { filters: false });

  it('invoice.issued, invoice.paid and invoice.credited: delivered signed; a refused issue or a partial payment emits nothing', async () => {
    const org = await invoicingOrg(stack);
    const endpoint = (
      await stack.http
        .post('/api/webhooks/endpoints')
        .set(org.auth)
        .send({ url: receiver.url('/invoices'), eventTypes: ['invoice.issued', 'invoice.paid', 'invoice.credited'] })
        .expect(201)
    ).body as { secret: string };
    // No billing address: the issue is refused, in its transaction, and its event with it.
    const incomplete = await draft(stack, org, (await customerOf(stack, org, { address: false })).id);
    const refused = await stack.http.post(`/api/invoices/${incomplete.id}/issue`).set(org.auth);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    const invoice = await issued(stack, org, (await customerOf(stack, org)).id);
    await stack.http.post(`/api/invoices/${invoice.id}/pay`).set(org.auth).send({ amountCents: 100 }).expect(200);
    await stack.http.post(`/api/invoices/${invoice.id}/pay`).set(org.auth).send({}).expect(200);
    await stack.http
      .post(`/api/invoices/${invoice.id}/credit-note`)
      .set(org.auth)
      .send({ reason: 'Erreur de prix' })
      .expect(201);
    await eventually(() => receiver.on('/invoices').length >= 3, { what: 'three deliveries' });
    const hook = new Webhook(endpoint.secret);
    const got = receiver
      .on('/invoices')
      .map((r) => hook.verify(r.body, r.headers as Record<string, string>) as { type: string; data: object });
    // One resource: in order.
    expect(got.map((e) => e.type)).toEqual(['invoice.issued', 'invoice.paid', 'invoice.credited']);
    expect(got[0].data).toMatchObject({ id: invoice.id, number: invoice.number, status: 'issued', paidCents: 0 });
    expect(got[1].data).toMatchObject({ id: invoice.id, status: 'paid' });
    expect(got[2].data).toMatchObject({ id: invoice.id, status: 'credited' });
    const events = await stack.services.orm.em
      .fork()
      .count(WebhookEvent, { tenantId: org.tenantId }, { filters: false });
    expect(events).toBe(3);
  });

  it('leave.requested and leave.decided: delivered signed; a request the database refuses emits nothing', async () => {
    const { owner } = await hrOrg(stack);
    const endpoint = (
      await stack.http
        .post('/api/webhooks/endpoints')
        .set(owner.auth)
        .send({ url: receiver.url('/leave'), eventTypes: ['leave.requested', 'leave.decided'] })
        .expect(201)
    ).body as { secret: string };
    const types = (await stack.http.get('/api/rh/leave-types').set(owner.auth)).body.items as {
      code: string;
      id: string;
    }[];
    const unpaid = types.find((t) => t.code === 'unpaid')!.id;
    const e = await createEmployee(stack, owner, { hireDate: '2024-01-01' });
    await setSchedule(stack, owner, e.id, '2024-01-01');
    const file = () =>
      stack.http
        .post(`/api/rh/employees/${e.id}/leave-requests`)
        .set(owner.auth)
        .send({ leaveTypeId: unpaid, startDate: '2025-06-02', endDate: '2025-06-03' });
    const filed = await file();
    expect(filed.status).toBe(201);
    // The same days again: the exclusion constraint refuses the insert, and the event rolls back with it.
    expect((await file()).status).toBe(409);
    await stack.http
      .patch(`/api/rh/leave-requests/${filed.body.id}/decision`)
      .set(owner.auth)
      .send({ decision: 'grant' })
      .expect(200);
    await eventually(() => receiver.on('/leave').length >= 2, { what: 'two deliveries' });
    const hook = new Webhook(endpoint.secret);
    const got = receiver
      .on('/leave')
      .map((r) => hook.verify(r.body, r.headers as Record<string, string>) as { type: string; data: object });
    expect(got.map((x) => x.type)).toEqual(['leave.requested', 'leave.decided']);
    expect(got[0].data).toEqual({
      id: filed.body.id,
      employeeId: e.id,
      leaveType: 'unpaid',
      startDate: '2025-06-02',
      endDate: '2025-06-03',
      status: 'pending',
    });
    expect(got[1].data).toMatchObject({ id: filed.body.id, status: 'granted' });
    const events = await stack.services.orm.em
      .fork()
      .count(WebhookEvent, { tenantId: owner.tenantId }, { filters: false });
    expect(events).toBe(2);
  });

  it('appointment.booked and appointment.cancelled: delivered signed; a double booking emits nothing', async () => {
    const owner = await createAccount(stack, { tier: 'business' });
    const endpoint = (
      await stack.http
        .post('/api/webhooks/endpoints')
        .set(owner.auth)
        .send({ url: receiver.url('/booking'), eventTypes: ['appointment.booked', 'appointment.cancelled'] })
        .expect(201)
    ).body as { secret: string };
    const { service, staff } = await bookable(owner);
    const book = () =>
      stack.http
        .post('/api/appointments')
        .set(owner.auth)
        .send({ serviceId: service.id, staffId: staff.id, start: '2031-03-03T10:00:00Z' });
    const booked = await book();
    expect(booked.status).toBe(201);
    // The same slot: refused by the exclusion constraint, and its event with it.
    expect((await book()).status).toBe(409);
    await stack.http.delete(`/api/appointments/${booked.body.id}`).set(owner.auth).expect(200);
    await eventually(() => receiver.on('/booking').length >= 2, { what: 'two deliveries' });
    const hook = new Webhook(endpoint.secret);
    const got = receiver
      .on('/booking')
      .map((r) => hook.verify(r.body, r.headers as Record<string, string>) as { type: string; data: object });
    expect(got.map((x) => x.type)).toEqual(['appointment.booked', 'appointment.cancelled']);
    expect(got[0].data).toEqual({
      id: booked.body.id,
      serviceId: service.id,
      staffId: staff.id,
      customerId: null,
      startAt: '2031-03-03T10:00:00.000Z',
      status: 'booked',
      previousStartAt: null,
    });
    expect(got[1].data).toMatchObject({ id: booked.body.id, status: 'cancelled' });
    const events = await stack.services.orm.em
      .fork()
      .count(WebhookEvent, { tenantId: owner.tenantId }, { filters: false });
    expect(events).toBe(2);
  });

  it('member.removed: delivered signed; a refused removal (the last owner leaving) emits nothing', async () => {
    const owner = await createAccount(stack);
    const member = await addMember(stack, owner, 'member');
    const endpoint = (
      await stack.http
        .post('/api/webhooks/endpoints')
        .set(owner.auth)
        .send({ url: receiver.url('/members'), eventTypes: ['member.removed'] })
        .expect(201)
    ).body as { secret: string };
    const remove = (userId: string) => stack.http.delete(`/orgs/${owner.tenantId}/members/${userId}`).set(owner.auth);
    expect((await remove(owner.user.id)).status).toBe(409);
    expect((await remove(member.user.id)).status).toBe(204);
    await eventually(() => receiver.on('/members').length >= 1, { what: 'a delivery' });
    const [r] = receiver.on('/members');
    const got = new Webhook(endpoint.secret).verify(r.body, r.headers as Record<string, string>) as {
      type: string;
      data: object;
    };
    expect(got).toMatchObject({ type: 'member.removed', data: { userId: member.user.id, roles: ['member'] } });
    const events = await stack.services.orm.em
      .fork()
      .count(WebhookEvent, { tenantId: owner.tenantId }, { filters: false });
    expect(events).toBe(1);
  });

  it('appointment.rescheduled: delivered signed with the previous start; a move onto a taken slot emits nothing', async () => {
    const owner = await createAccount(stack, { tier: 'business' });
    const secret = await subscribe(owner, '/rescheduled', ['appointment.rescheduled']);
    const { service, staff } = await bookable(owner);
    const book = (start: string) =>
      stack.http
        .post('/api/appointments')
        .set(owner.auth)
        .send({ serviceId: service.id, staffId: staff.id, start })
        .expect(201);
    const a = (await book('2031-04-07T10:00:00Z')).body as { id: string };
    await book('2031-04-07T12:00:00Z');
    const move = (start: string) => stack.http.patch(`/api/appointments/${a.id}`).set(owner.auth).send({ start });
    // Onto the other appointment: the exclusion constraint refuses the flush, and the event with it.
    expect((await move('2031-04-07T12:00:00Z')).status).toBe(409);
    expect((await move('2031-04-07T14:00:00Z')).status).toBe(200);
    await eventually(() => receiver.on('/rescheduled').length >= 1, { what: 'a delivery' });
    expect(verified('/rescheduled', secret)).toEqual([
      {
        id: expect.any(String),
        type: 'appointment.rescheduled',
        version: 1,
        timestamp: expect.any(String),
        data: expect.objectContaining({
          id: a.id,
          startAt: '2031-04-07T14:00:00.000Z',
          previousStartAt: '2031-04-07T10:00:00.000Z',
          status: 'booked',
        }),
      },
    ]);
    expect(await eventsOf(owner.tenantId, 'appointment.rescheduled')).toBe(1);
  });

  it('employee.created: delivered signed; a second employee for the same account (refused at commit) emits nothing', async () => {
    const owner = await createAccount(stack, { tier: 'business' });
    const member = await addMember(stack, owner, 'member');
    const secret = await subscribe(owner, '/employees', ['employee.created']);
    const make = () =>
      stack.http
        .post('/api/rh/employees')
        .set(owner.auth)
        .send({ firstName: 'Marie', lastName: 'Curie', userId: member.user.id });
    const made = await make();
    expect(made.status).toBe(201);
    // The unique (tenant, user) index refuses the insert at commit: the transaction rolls back with its event.
    expect((await make()).status).toBe(409);
    await eventually(() => receiver.on('/employees').length >= 1, { what: 'a delivery' });
    const got = verified('/employees', secret);
    expect(got.map((e) => e.data)).toEqual([{ id: made.body.id, displayName: 'Marie Curie', userId: member.user.id }]);
    expect(await eventsOf(owner.tenantId, 'employee.created')).toBe(1);
  });

  it('article.published: delivered signed, once per move to published; a refused move emits nothing', async () => {
    const owner = await createAccount(stack);
    const secret = await subscribe(owner, '/articles', ['article.published']);
    const space = await createSpace(stack, owner);
    const article = await createArticle(stack, owner, space.id, { title: 'Onboarding' });
    const status = (to: string) =>
      stack.http.post(`/api/knowledge/articles/${article.id}/status`).set(owner.auth).send({ status: to });
    const publish = () => stack.http.post(`/api/knowledge/articles/${article.id}/publish`).set(owner.auth);
    expect((await publish()).status).toBe(200);
    // Published already: answered unchanged, no second event.
    expect((await publish()).status).toBe(200);
    // Published to published is not a transition of the table: refused.
    expect((await status('published')).status).toBe(409);
    // Unpublished, then published again: a second event.
    expect((await status('draft')).status).toBe(200);
    expect((await publish()).status).toBe(200);
    await eventually(() => receiver.on('/articles').length >= 2, { what: 'two deliveries' });
    const data = { id: article.id, spaceId: space.id, title: 'Onboarding', slug: article.slug };
    expect(verified('/articles', secret).map((e) => [e.type, e.data])).toEqual([
      ['article.published', data],
      ['article.published', data],
    ]);
    expect(await eventsOf(owner.tenantId, 'article.published')).toBe(2);
  });

  it('vr.session.completed: delivered signed with its summary; leaving a room one is not in emits nothing', async () => {
    const org = await vrOrg(stack, 2);
    const [host, guest] = org.members;
    const secret = await subscribe(org.admin, '/vr', ['vr.session.completed']);
    const room = await createRoom(stack, org.admin, { participantIds: org.members.map((m) => m.user.id) });
    const session = (await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201)).body as {
      id: string;
    };
    await stack.http
      .post(`/rooms/${room.id}/heartbeat`)
      .set(host.auth)
      .send({ displayName: 'Ada', isHost: true })
      .expect(200);
    expect((await stack.http.post(`/rooms/${room.id}/leave`).set(guest.auth)).status).toBe(409);
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);
    await stack.http.post(`/rooms/${room.id}/heartbeat`).set(guest.auth).send({ displayName: 'Bob' }).expect(200);
    const ended = await stack.http.post(`/rooms/${room.id}/leave`).set(host.auth);
    expect(ended.body).toEqual({ sessionId: session.id, sessionEnded: true });
    await eventually(() => receiver.on('/vr').length >= 1, { what: 'a delivery' });
    const [got] = verified('/vr', secret);
    expect(got).toMatchObject({
      type: 'vr.session.completed',
      data: { id: session.id, roomId: room.id, reason: 'host_left', participants: 2 },
    });
    expect((got.data as { durationSeconds: number }).durationSeconds).toBeGreaterThanOrEqual(0);
    expect(await eventsOf(org.admin.tenantId, 'vr.session.completed')).toBe(1);
  });

  it('member.joined: delivered signed when an invitation is accepted; a second acceptance (409) emits nothing', async () => {
    const owner = await createAccount(stack, { tier: 'business' });
    const invitee = await createAccount(stack);
    const secret = await subscribe(owner, '/joined', ['member.joined']);
    const invitation = await stack.http
      .post(`/orgs/${owner.tenantId}/invite`)
      .set(owner.auth)
      .send({ email: invitee.email, role: 'admin' })
      .expect(201);
    const accept = () => stack.http.post(`/orgs/invites/${invitation.body.id}/accept`).set(invitee.auth);
    expect((await accept()).status).toBe(201);
    expect((await accept()).status).toBe(409);
    await eventually(() => receiver.on('/joined').length >= 1, { what: 'a delivery' });
    expect(verified('/joined', secret).map((e) => [e.type, e.data])).toEqual([
      ['member.joined', { userId: invitee.user.id, roles: ['admin'] }],
    ]);
    expect(await eventsOf(owner.tenantId, 'member.joined')).toBe(1);
  });
});
