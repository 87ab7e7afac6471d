import { Webhook } from 'standardwebhooks';
import { WebhookEvent } from '../../entities/webhooks/webhook';
import { customerOf, draft, invoicingOrg, issued } from '../core/invoices/support';
import { addMember, createAccount } from '../support/factories';
import { createEmployee, hrOrg, setSchedule } from '../support/hr';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';
import { startReceiver } from '../support/webhookReceiver';

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
    const service = (
      await stack.http
        .post('/api/rdv/services')
        .set(owner.auth)
        .send({ name: 'Cut', durationMinutes: 30, priceCents: 1000 })
    ).body as { id: string };
    const staff = (await stack.http.post('/api/rdv/staff').set(owner.auth).send({ displayName: 'A' })).body as {
      id: string;
    };
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
});
