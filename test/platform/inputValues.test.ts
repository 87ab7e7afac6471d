import { decimalPlaces } from '../../api/http/dtos';
import { customerOf, invoicingOrg, issued, line } from '../core/invoices/support';
import { makeCustomer } from '../support/crm';
import type { Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';

/**
 * Values at the edges of what JSON and the columns hold (api/http/dtos.ts, validate.ts): numbers in exponent
 * notation, UUIDs in upper case, instants at the ends of the years PostgreSQL and Date.toISOString share. Each is
 * a 400 `validation_failed` naming the field, or the same answer as its plain form, never a 500; nothing is stored
 * by a refused request.
 */
describe('input values at the edges', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await invoicingOrg(stack);
  });
  afterAll(() => stack.close());

  const count = async (table: string) =>
    (
      await stack.services.orm.em
        .fork()
        .execute<{ n: number }[]>(`select count(*)::int as n from ${table} where tenant_id = ?`, [owner.tenantId])
    )[0].n;
  const refuses = (
    res: { status: number; body: { errors?: { field: string; message: string }[] } },
    field: string,
    message: RegExp,
  ) => {
    expectProblem(res as never, 400, 'validation_failed');
    expect(res.body.errors).toContainEqual({ field, message: expect.stringMatching(message) });
  };

  describe('decimals in exponent notation', () => {
    it('counts decimal places as JSON writes the number', () => {
      expect([1, 1.5, 0.125, 1e-7, 1.25e-5, 1e21, -0, 123.456].map(decimalPlaces)).toEqual([0, 1, 3, 7, 7, 0, 0, 3]);
    });

    it('invoice lines and credit notes: quantity 1e-7 and discountPercent 1e-7 are 400, nothing stored; 0.001 and 12.5 are taken', async () => {
      const customer = await customerOf(stack, owner);
      const before = await count('inv_invoices');
      for (const [field, value] of [
        ['quantity', 1e-7],
        ['quantity', 0.0000001],
        ['discountPercent', 1e-7],
        ['discountPercent', -1e-7],
      ] as const) {
        refuses(
          await stack.http
            .post('/api/invoices')
            .set(owner.auth)
            .send({ customerId: customer.id, lines: [line({ [field]: value })] }),
          `lines[0].${field}`,
          /decimal places/,
        );
      }
      const invoice = await issued(stack, owner, customer.id);
      refuses(
        await stack.http
          .post(`/api/invoices/${invoice.id}/credit-note`)
          .set(owner.auth)
          .send({ reason: 'Erreur', lines: [line({ quantity: 1e-7 })] }),
        'lines[0].quantity',
        /decimal places/,
      );
      expect(await count('inv_invoices')).toBe(before + 1);
      await stack.http
        .post('/api/invoices')
        .set(owner.auth)
        .send({ customerId: customer.id, lines: [line({ quantity: 0.001, discountPercent: 12.5 })] })
        .expect(201);
    });

    it('employees (and their provisioning) and leave types: weeklyHours and accrualDaysPerMonth 1e-7 are 400, nothing stored', async () => {
      const employees = await count('hr_employees');
      refuses(
        await stack.http
          .post('/api/rh/employees')
          .set(owner.auth)
          .send({ firstName: 'Ada', lastName: 'Lovelace', weeklyHours: 1e-7 }),
        'weeklyHours',
        /decimal places/,
      );
      const provision = {
        organizationId: owner.tenantId,
        candidateId: 'cand-1e-7',
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.test',
        weeklyHours: 1e-7,
      };
      refuses(
        await stack.http
          .post('/api/rh/internal/employees')
          .set('X-Internal-Secret', TEST_INTERNAL_SECRET)
          .send(provision),
        'weeklyHours',
        /decimal places/,
      );
      const employee = (
        await stack.http
          .post('/api/rh/employees')
          .set(owner.auth)
          .send({ firstName: 'Ada', lastName: 'Lovelace', weeklyHours: 35.5 })
          .expect(201)
      ).body as { id: string };
      refuses(
        await stack.http.patch(`/api/rh/employees/${employee.id}`).set(owner.auth).send({ weeklyHours: 1e-7 }),
        'weeklyHours',
        /decimal places/,
      );
      expect(await count('hr_employees')).toBe(employees + 1);
      const types = await count('hr_leave_types');
      refuses(
        await stack.http
          .post('/api/rh/leave-types')
          .set(owner.auth)
          .send({ code: 'tiny', name: 'Tiny', paid: true, tracksBalance: true, accrualDaysPerMonth: 1e-7 }),
        'accrualDaysPerMonth',
        /decimal places/,
      );
      expect(await count('hr_leave_types')).toBe(types);
    });
  });

  describe('UUIDs in upper case are the same ids', () => {
    it('a relation to the customer itself by its upper-case id is refused as the lower-case one is (400), not a 500', async () => {
      const ada = await makeCustomer(stack, owner, { name: 'Ada' });
      const relations = await count('crm_relations');
      const same = await stack.http
        .post(`/api/customers/${ada.id}/relations`)
        .set(owner.auth)
        .send({ type: 'partner_of', customerId: ada.id });
      const upper = await stack.http
        .post(`/api/customers/${ada.id}/relations`)
        .set(owner.auth)
        .send({ type: 'partner_of', customerId: ada.id.toUpperCase() });
      const both = await stack.http
        .post(`/api/customers/${ada.id.toUpperCase()}/relations`)
        .set(owner.auth)
        .send({ type: 'partner_of', customerId: ada.id.toUpperCase() });
      expectProblem(same, 400, 'validation_failed');
      for (const res of [upper, both])
        expect({ status: res.status, body: { ...res.body, requestId: undefined, instance: undefined } }).toEqual({
          status: same.status,
          body: { ...same.body, requestId: undefined, instance: undefined },
        });
      expect(await count('crm_relations')).toBe(relations);
    });

    it('path, query and body ids in upper case read, filter and store as their lower-case form', async () => {
      const acme = await makeCustomer(stack, owner, { name: 'Acme', kind: 'organisation' });
      const ada = await makeCustomer(stack, owner, { name: 'Ada Upper' });
      const business = (await stack.http.get('/api/businesses').set(owner.auth).expect(200)).body as { id: string };
      // Reads by path: every id route answers the same whatever the case.
      expect((await stack.http.get(`/api/businesses/${business.id.toUpperCase()}`).set(owner.auth)).body).toEqual(
        (await stack.http.get(`/api/businesses/${business.id}`).set(owner.auth)).body,
      );
      // Body: the relation stores and shows the lower-case id.
      const rel = await stack.http
        .post(`/api/customers/${ada.id}/relations`)
        .set(owner.auth)
        .send({ type: 'employee_of', customerId: acme.id.toUpperCase() });
      expect(rel.status).toBe(201);
      expect(rel.body.customerId).toBe(acme.id);
      // Query: a filter by an upper-case id finds what the lower-case one finds.
      const employee = (
        await stack.http
          .post('/api/rh/employees')
          .set(owner.auth)
          .send({ firstName: 'Up', lastName: 'Per', userId: owner.user.id.toUpperCase() })
          .expect(201)
      ).body as { id: string; userId: string };
      expect(employee.userId).toBe(owner.user.id);
      const lower = (await stack.http.get(`/api/rh/employees?userId=${owner.user.id}`).set(owner.auth).expect(200))
        .body;
      expect(lower.items.map((e: { id: string }) => e.id)).toEqual([employee.id]);
      expect(
        (await stack.http.get(`/api/rh/employees?userId=${owner.user.id.toUpperCase()}`).set(owner.auth).expect(200))
          .body,
      ).toEqual(lower);
      expect(
        (await stack.http.get(`/api/rh/employees/${employee.id.toUpperCase()}/availability`).set(owner.auth)).status,
      ).toBe(200);
    });
  });

  describe('instants within 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z', () => {
    let serviceId: string;
    let staffId: string;
    beforeAll(async () => {
      serviceId = (
        await stack.http
          .post('/api/rdv/services')
          .set(owner.auth)
          .send({ name: 'Coupe', durationMinutes: 30, priceCents: 2500 })
          .expect(201)
      ).body.id;
      staffId = (
        await stack.http
          .post('/api/rdv/staff')
          .set(owner.auth)
          .send({ displayName: 'Alice', weeklyHours: { '1': ['09:00-17:00'] } })
          .expect(201)
      ).body.id;
    });

    it('an appointment starting at 9999-12-31T23:59:59Z (its end in year 10000) is 400 on start, created or moved; nothing stored', async () => {
      const before = await count('booking_appointments');
      refuses(
        await stack.http
          .post('/api/appointments')
          .set(owner.auth)
          .send({ serviceId, staffId, start: '9999-12-31T23:59:59Z' }),
        'start',
        /appointment and its buffers must lie between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z/,
      );
      const made = (
        await stack.http
          .post('/api/appointments')
          .set(owner.auth)
          .send({ serviceId, staffId, start: '2031-01-06T09:00:00Z' })
          .expect(201)
      ).body as { id: string };
      refuses(
        await stack.http.patch(`/api/appointments/${made.id}`).set(owner.auth).send({ start: '9999-12-31T23:59:59Z' }),
        'start',
        /must lie between/,
      );
      expect((await stack.http.get(`/api/appointments/${made.id}`).set(owner.auth).expect(200)).body.startAt).toBe(
        '2031-01-06T09:00:00.000Z',
      );
      expect(await count('booking_appointments')).toBe(before + 1);
      // Before 1970 and at the first year are instants like any other.
      await stack.http
        .post('/api/appointments')
        .set(owner.auth)
        .send({ serviceId, staffId, start: '1969-12-31T23:00:00Z' })
        .expect(201);
    });

    it('an all-day calendar event on the last day (in Paris, its end the next local midnight) is 400; years 0001 and 9999 are taken as such', async () => {
      const before = await count('calendar_events');
      refuses(
        await stack.http
          .post('/api/calendar/events')
          .set(owner.auth)
          .send({ title: 'Last day', startAt: '9999-12-31T23:30:00Z', endAt: '9999-12-31T23:45:00Z', allDay: true }),
        'startAt',
        /all-day event.*must lie between/,
      );
      expect(await count('calendar_events')).toBe(before);
      const first = await stack.http
        .post('/api/calendar/events')
        .set(owner.auth)
        .send({ title: 'First', startAt: '0001-01-01T00:00:00Z', endAt: '0001-01-01T01:00:00Z' });
      expect({ status: first.status, startAt: first.body.startAt }).toEqual({
        status: 201,
        startAt: '0001-01-01T00:00:00.000Z',
      });
      const last = await stack.http
        .post('/api/calendar/events')
        .set(owner.auth)
        .send({ title: 'Last', startAt: '9999-12-31T23:00:00Z', endAt: '9999-12-31T23:59:59.999Z' });
      expect({ status: last.status, endAt: last.body.endAt }).toEqual({
        status: 201,
        endAt: '9999-12-31T23:59:59.999Z',
      });
    });

    it('an instant whose UTC time leaves the range through its offset is 400 naming the range; year 0000 is no date', async () => {
      for (const startAt of ['9999-12-31T23:59:59-01:00', '0001-01-01T00:30:00+01:00']) {
        refuses(
          await stack.http
            .post('/api/calendar/events')
            .set(owner.auth)
            .send({ title: 'Edge', startAt, endAt: '2031-01-01T00:00:00Z' }),
          'startAt',
          /^startAt must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z \(UTC\)$/,
        );
      }
      refuses(
        await stack.http
          .post('/api/calendar/events')
          .set(owner.auth)
          .send({ title: 'Edge', startAt: '0000-06-01T00:00:00Z', endAt: '2031-01-01T00:00:00Z' }),
        'startAt',
        /RFC 3339/,
      );
      refuses(
        (await stack.http.get('/reports/overview?from=9999-12-31T23:59:59-01:00').set(owner.auth)) as never,
        'from',
        /must be between/,
      );
    });
  });

  it('a list of objects given an array as an item is 400 on that item (class-validator walks it as a list)', async () => {
    const ada = await makeCustomer(stack, owner, { name: 'Ada Nested' });
    refuses(
      await stack.http
        .patch(`/api/customers/${ada.id}`)
        .set(owner.auth)
        .send({ emails: [[]] }),
      'emails[0]',
      /^must be an object$/,
    );
    refuses(
      await stack.http
        .post('/api/pipelines')
        .set(owner.auth)
        .send({ name: 'P', stages: [[]] }),
      'stages[0]',
      /^must be an object$/,
    );
  });
});
