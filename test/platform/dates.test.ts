import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Document } from '../../api/http/contract';
import { makeCustomer, makeDeal, makePipeline } from '../support/crm';
import { createEmployee, hrOrg, type HrOrg } from '../support/hr';
import { expectProblem } from '../support/identity';
import { publishedDocument, requestProblem } from '../support/openapi';
import { startStack, type TestStack } from '../support/stack';

type Schema = Record<string, unknown>;

/** Every date-only field of the DTOs (@IsCalendarDate, api/http/dtos.ts): [schema, property, takes null]. */
const DATE_FIELDS: [string, string, boolean][] = [
  ['CreateDealBody', 'expectedCloseDate', true],
  ['UpdateDealBody', 'expectedCloseDate', true],
  ['CreateEmployeeBody', 'hireDate', false],
  ['ProvisionEmployeeBody', 'hireDate', false],
  ['UpdateEmployeeBody', 'hireDate', true],
  ['UpdateEmployeeBody', 'endDate', true],
  ['SetScheduleBody', 'effectiveFrom', false],
  ['FileLeaveRequestBody', 'startDate', false],
  ['FileLeaveRequestBody', 'endDate', false],
  ['ListLeaveRequestsQuery', 'from', false],
  ['ListLeaveRequestsQuery', 'to', false],
  ['ComplianceScanBody', 'from', false],
  ['ComplianceScanBody', 'to', false],
  ['TimesheetQuery', 'from', false],
  ['TimesheetQuery', 'to', false],
  ['InvoiceDraftBody', 'dueDate', false],
  ['InvoiceDraftBody', 'deliveryDate', false],
  ['PaymentBody', 'paidOn', false],
];

/** Every `oneOf` of the document whose branches are all strings: they overlap, so no value can match exactly one. */
function overlappingOneOfs(node: unknown, at = '#'): string[] {
  if (!node || typeof node !== 'object') return [];
  const here = (node as Schema).oneOf;
  const found = Array.isArray(here) && here.length > 1 && here.every((b: Schema) => b.type === 'string') ? [at] : [];
  return [...found, ...Object.entries(node).flatMap(([key, child]) => overlappingOneOfs(child, `${at}/${key}`))];
}

describe('date fields: calendar dates, documented as dates, null where it clears them', () => {
  let stack: TestStack;
  let org: HrOrg;
  let doc: Document;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await hrOrg(stack);
    doc = (await publishedDocument(stack)).doc;
  });
  afterAll(() => stack.close());

  it('declares every date field as a string of format date (and null where it takes it), without a oneOf', () => {
    expect(overlappingOneOfs(doc)).toEqual([]);
    // Validators that check formats, and those that only annotate with them (JSON Schema 2020-12's default).
    const checking = new Ajv2020({ strict: false });
    addFormats(checking);
    const annotating = new Ajv2020({ strict: false, validateFormats: false });
    for (const [name, property, nullable] of DATE_FIELDS) {
      const schema = (doc.components.schemas[name].properties as Record<string, Schema>)[property];
      expect({ field: `${name}.${property}`, ...schema }).toEqual({
        field: `${name}.${property}`,
        type: nullable ? ['string', 'null'] : 'string',
        format: 'date',
        pattern: '^\\d{4}-\\d{2}-\\d{2}$',
        ...(schema.description ? { description: schema.description } : {}),
        // Request bodies carry a valid date for Swagger UI's sample (it would generate one from the pattern).
        ...(schema.examples ? { examples: ['2026-01-15'] } : {}),
      });
      for (const ajv of [checking, annotating]) {
        const validate = ajv.compile(schema);
        expect([
          `${name}.${property}`,
          validate('2026-03-01'),
          validate(null),
          validate('2026-03-01T10:00:00Z'),
          validate('1 March'),
        ]).toEqual([`${name}.${property}`, true, nullable, false, false]);
      }
    }
    // The query parameters of the lists are those schemas.
    const parameter = (path: string, name: string) =>
      (doc.paths[path].get as unknown as { parameters: { name: string; schema: Schema }[] }).parameters.find(
        (p) => p.name === name,
      )?.schema;
    for (const path of ['/api/rh/leave-requests', '/api/rh/exports/timesheet']) {
      for (const name of ['from', 'to'])
        expect(parameter(path, name)).toMatchObject({ type: 'string', format: 'date' });
    }
  });

  it('takes a deal expectedCloseDate and clears it with null, as the document says', async () => {
    const owner = org.owner;
    const pipeline = await makePipeline(stack, owner);
    const customer = await makeCustomer(stack, owner);
    const created = {
      title: 'Deal',
      amount: 100,
      currency: 'EUR',
      customerId: customer.id,
      stageId: pipeline.stages[0].id,
      expectedCloseDate: '2026-12-31',
    };
    expect(await requestProblem(stack, 'post', '/api/deals', created)).toBeUndefined();
    const deal = await makeDeal(stack, owner, created);
    expect(deal.expectedCloseDate).toBe('2026-12-31');

    const patch = (body: Record<string, unknown>) =>
      stack.http.patch(`/api/deals/${deal.id}`).set(owner.auth).send(body);
    expect(await requestProblem(stack, 'patch', '/api/deals/{id}', { expectedCloseDate: null })).toBeUndefined();
    const cleared = await patch({ expectedCloseDate: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.expectedCloseDate).toBeNull();
    expect((await patch({ expectedCloseDate: '2028-02-29' })).body.expectedCloseDate).toBe('2028-02-29');

    // A day that does not exist, a date and time: the server and the document refuse them alike.
    for (const refused of ['2026-02-30', '2026-12-31T10:00:00Z', '0000-01-01']) {
      const res = expectProblem(await patch({ expectedCloseDate: refused }), 400, 'validation_failed');
      expect(res.errors).toEqual([expect.objectContaining({ field: 'expectedCloseDate' })]);
    }
    for (const refused of ['2026-02-30', '2026-12-31T10:00:00Z']) {
      expect(await requestProblem(stack, 'patch', '/api/deals/{id}', { expectedCloseDate: refused })).toMatch(
        /expectedCloseDate/,
      );
    }
  });

  it("takes an employee's hireDate and endDate and clears them with null, as the document says", async () => {
    const employee = await createEmployee(stack, org.owner, {
      firstName: 'Ada',
      lastName: 'Byron',
      hireDate: '2024-01-15',
    });
    expect(employee.hireDate).toBe('2024-01-15');
    const patch = (body: Record<string, unknown>) =>
      stack.http.patch(`/api/rh/employees/${employee.id}`).set(org.owner.auth).send(body);

    expect((await patch({ endDate: '2099-06-30' })).body).toMatchObject({ endDate: '2099-06-30' });
    for (const body of [{ endDate: null }, { hireDate: null }]) {
      expect(await requestProblem(stack, 'patch', '/api/rh/employees/{id}', body)).toBeUndefined();
      const res = await patch(body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(body);
    }
    expect(expectProblem(await patch({ hireDate: '2024-02-30' }), 400, 'validation_failed').errors).toEqual([
      expect.objectContaining({ field: 'hireDate' }),
    ]);
    // Date filters of a list, in the query.
    expect(
      (await stack.http.get('/api/rh/leave-requests?from=2026-01-01&to=2026-12-31').set(org.owner.auth)).status,
    ).toBe(200);
    expectProblem(
      await stack.http.get('/api/rh/leave-requests?from=2026-01-01T00:00:00Z').set(org.owner.auth),
      400,
      'validation_failed',
    );
  });
});
