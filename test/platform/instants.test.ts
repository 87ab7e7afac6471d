import { makeCustomer } from '../support/crm';
import { createAccount, type Account } from '../support/factories';
import { expectFieldErrors } from '../support/identity';
import { requestProblem } from '../support/openapi';
import { startStack, type TestStack } from '../support/stack';

/**
 * Points in time a client sends (@IsInstant, api/http/dtos.ts isInstant), documented as OpenAPI `date-time`:
 * RFC 3339, a date and a time with Z or an offset. Regression: a date alone ("2030-03-02") or a time without
 * offset ("2030-03-02T09:30:00") was taken and read by `new Date()` as UTC midnight or in the server's zone: a
 * follow-up "due 2 March" of a team in Los Angeles was due 1 March 16:00 there, overdue a day early.
 */
describe('instants: RFC 3339 date-times with an offset, nothing the server would have to guess a zone for', () => {
  let stack: TestStack;
  let owner: Account;
  let customerId: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
    const business = await stack.http.get('/api/businesses').set(owner.auth).expect(200);
    await stack.http
      .patch(`/api/businesses/${business.body.id}`)
      .set(owner.auth)
      .send({ timeZone: 'America/Los_Angeles' })
      .expect(200);
    customerId = (await makeCustomer(stack, owner)).id;
  });
  afterAll(() => stack.close());

  const followUp = (dueAt: string) =>
    stack.http
      .post(`/api/customers/${customerId}/activities`)
      .set(owner.auth)
      .send({ type: 'task', subject: 'Send the quote', dueAt });

  it.each([
    ['2030-03-02T09:30:00Z', '2030-03-02T09:30:00.000Z'],
    ['2030-03-02T09:30:00-08:00', '2030-03-02T17:30:00.000Z'],
    ['2030-03-02T09:30:00.25+05:30', '2030-03-02T04:00:00.250Z'],
    ['2030-03-02T09:30:00.123456Z', '2030-03-02T09:30:00.123Z'],
    ['2030-03-02T00:00:00+00:00', '2030-03-02T00:00:00.000Z'],
  ])('takes dueAt %s, the instant %s, as the document does', async (dueAt, instant) => {
    expect(
      await requestProblem(stack, 'post', '/api/customers/{id}/activities', {
        type: 'task',
        subject: 'Send the quote',
        dueAt,
      }),
    ).toBeUndefined();
    const res = await followUp(dueAt);
    expect(res.status).toBe(201);
    expect(res.body.dueAt).toBe(instant);
  });

  it.each([
    '2030-03-02', // a date: no time, no zone
    '2030-03-02T09:30:00', // a local time: no zone
    '2030-03-02T09:30', // no seconds, no zone
    '2030-03-02T09:30Z', // no seconds
    '2030-03-02T09:30:00+0100', // basic offset
    '2030-03-02T09:30:00+01', // offset without minutes
    '2030-03-02 09:30:00Z', // space for T
    '20300302T093000Z', // basic form
    '2030-W09-6T09:30:00Z', // week date
    '2030-02-30T09:30:00Z', // a day that does not exist
    '2030-03-02T24:00:00Z', // hour 24
    '+002030-03-02T09:30:00Z', // signed year
  ])('refuses dueAt %s with 400 validation_failed on dueAt', async (dueAt) => {
    const res = await followUp(dueAt);
    expectFieldErrors(res, 'dueAt');
    expect(res.body.errors).toEqual([{ field: 'dueAt', message: expect.stringMatching(/Z or an offset/) }]);
  });

  it('refuses an instant without offset in a query too', async () => {
    expectFieldErrors(
      await stack.http.get('/api/calendar/events?from=2030-03-02&to=2030-03-03T00:00:00').set(owner.auth),
      'from',
      'to',
    );
    expect(
      (
        await stack.http
          .get('/api/calendar/events')
          .query({ from: '2030-03-02T00:00:00-08:00', to: '2030-03-03T00:00:00Z' })
          .set(owner.auth)
      ).status,
    ).toBe(200);
  });
});
