import type { Response } from 'supertest';
import { createAccount, type Account } from '../support/factories';
import { relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { headersFor, makeFixtures, paramsFor, type Fixture } from './fixtures';
import {
  entitledAccount,
  fillPath,
  isProblem,
  readDocument,
  sample,
  type ApiDocument,
  type Operation,
} from './openapi';
import { scaled } from '../support/timeScale';

/**
 * The cross-tenant probe. Tenant A's resources are made by every module's fixture (test/guards/fixtures/);
 * then every operation of /openapi.json with a path parameter is called as tenant B (an owner whose
 * organisation is entitled to every module, not a platform administrator) with A's values, and must answer
 * 404 like an unknown id (or 403 from a route-level guard B does not pass), and leave A's data untouched.
 * Operations a fixture declares `shared` (capability URLs, platform-wide catalogues) may answer, but still
 * must not change A's data. An operation with a path parameter no fixture covers fails: a new module
 * registers its resources in test/guards/fixtures/<module>.ts. Then every list and read without a path parameter
 * is called as tenant B: none of A's ids may appear in what B is shown.
 */

/**
 * Anonymous operations known to show their organisation's id, each with its reason; an entry is removed when the
 * operation stops (the probe then covers it).
 */
const KNOWN_ANONYMOUS_TENANT_ID: Record<string, string> = {};

/** 403 codes from guards that do not look at the resource (so they tell nothing about A's data). */
const ROUTE_LEVEL_REFUSALS = new Set([
  'platform_admin_required',
  'internal_secret_invalid',
  'internal_routes_disabled',
]);

describe("cross-tenant probe: tenant B calls every id route with tenant A's ids", () => {
  let stack: TestStack;
  let doc: ApiDocument;
  let a: Account;
  let b: Account;
  let fixture: Fixture;
  /** Tenant B's own fixtures: only its credentials (headers) are used. */
  let fixtureB: Fixture;
  // Fixtures of every module are made through the API, and every operation is called: minutes on a loaded machine.
  jest.setTimeout(scaled(300_000));
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: relaxedLimits });
    doc = await readDocument(stack);
    const admin = await createAccount(stack, { platformAdmin: true });
    [a, b] = [await entitledAccount(stack), await entitledAccount(stack)];
    fixture = await makeFixtures({ stack, account: a, admin });
    fixtureB = await makeFixtures({ stack, account: b, admin });
  });
  afterAll(() => stack?.close());

  const idRoutes = () => doc.operations.filter((op) => op.pathParams.length);
  const call = (op: Operation, values: Record<string, string>, who: Account): Promise<Response> => {
    const req = stack.http[op.method](fillPath(op.path, values)).set({
      ...who.auth,
      ...headersFor(op, who === a ? fixture : fixtureB),
    });
    const body = fixture.bodies?.[op.key] ?? (op.jsonBody ? sample(op.jsonBody, doc) : undefined);
    return body === undefined ? req : req.send(body as object);
  };

  it('has a fixture value for every path parameter of every operation', () => {
    const uncovered = idRoutes()
      .map((op) => ({ op, missing: paramsFor(op, fixture).missing }))
      .filter(({ missing }) => missing.length)
      .map(({ op, missing }) => `${op.key}: no value for {${missing.join('}, {')}}`);
    if (uncovered.length)
      throw new Error(
        `Register these in test/guards/fixtures/<module>.ts (params by route prefix):\n${uncovered.join('\n')}`,
      );
    expect(Object.keys(fixture.shared ?? {}).filter((key) => !doc.operations.some((op) => op.key === key))).toEqual([]);
  });

  it('answers tenant B 404 (or a route-level 403) on every id route, and changes nothing of tenant A', async () => {
    // The fixture values must be real: A reads its own resources (a bogus id would make every 404 meaningless).
    const unreadable: string[] = [];
    for (const op of idRoutes().filter((o) => o.method === 'get' && !fixture.shared?.[o.key])) {
      const res = await call(op, paramsFor(op, fixture).values, a);
      if (res.status === 404 || res.status === 400)
        unreadable.push(`${op.key} as the owner: ${res.status} ${res.body?.code}`);
    }
    expect(unreadable).toEqual([]);

    const before = await tenantData(stack, a, fixture);
    const failures: string[] = [];
    for (const op of idRoutes()) {
      const res = await call(op, paramsFor(op, fixture).values, b);
      const code = res.body?.code as string | undefined;
      const shared = fixture.shared?.[op.key];
      if (res.status >= 500) failures.push(`${op.key}: ${res.status} ${code}`);
      else if (shared) continue;
      else if (res.status < 400)
        failures.push(`${op.key}: LEAK, tenant B got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      else if (!isProblem(res)) failures.push(`${op.key}: ${res.status} is not problem+json with a code`);
      else if (res.status === 400)
        failures.push(
          `${op.key}: 400 ${code} ${JSON.stringify(res.body.errors ?? [])}: the probe's request did not reach the tenant check; register a valid body in the module's fixture`,
        );
      else if (res.status !== 404 && !(res.status === 403 && ROUTE_LEVEL_REFUSALS.has(code!)))
        failures.push(`${op.key}: ${res.status} ${code} (another tenant's id must answer 404, like an unknown one)`);
    }
    expect(failures).toEqual([]);
    expect(await tenantData(stack, a, fixture)).toEqual(before);
  });

  it("shows none of tenant A's ids in any list or read tenant B makes without a path parameter", async () => {
    // A's private ids: the fixture's values, minus those of operations that answer any tenant on purpose.
    const sharedIds = new Set(
      idRoutes()
        .filter((op) => fixture.shared?.[op.key])
        .flatMap((op) => Object.values(paramsFor(op, fixture).values)),
    );
    const privateIds = [a.tenantId, ...Object.values(fixture.params).flatMap((v) => Object.values(v))].filter(
      (v) => /^[0-9a-f-]{36}$/i.test(v) && !sharedIds.has(v),
    );
    const leaks: string[] = [];
    let read = 0;
    for (const op of doc.operations.filter(
      (o) => o.method === 'get' && !o.pathParams.length && !fixture.shared?.[o.key],
    )) {
      const res = await stack.http
        .get(op.path)
        // B's own query values (a capability token of B's own), so what B is shown is B's.
        .query(fixtureB.queries?.[op.key] ?? {})
        .set({ ...b.auth, ...headersFor(op, fixtureB) });
      if (res.status >= 500) leaks.push(`${op.key}: ${res.status} ${res.body?.code}`);
      if (res.status === 400)
        leaks.push(
          `${op.key}: 400 ${res.body?.code}: the scan's read did not reach the data; register its query in the module's fixture (queries)`,
        );
      if (res.status >= 300) continue;
      read++;
      const raw = res.text ?? JSON.stringify(res.body);
      const found = [...new Set(privateIds.filter((id) => raw.includes(id)))];
      if (found.length) leaks.push(`${op.key}: LEAK, tenant B sees tenant A's ${found.join(', ')}`);
    }
    expect(leaks).toEqual([]);
    expect(read).toBeGreaterThan(10);
  });

  it("never shows tenant A's organisation id to an anonymous caller, in a body or a header (a redirect's Location)", async () => {
    const leaks: string[] = [];
    let answered = 0;
    for (const op of doc.operations.filter(
      (o) => o.anonymous && !paramsFor(o, fixture).missing.length && !KNOWN_ANONYMOUS_TENANT_ID[o.key],
    )) {
      const path = fillPath(op.path, paramsFor(op, fixture).values);
      // An address that names the organisation itself (a storage key) only gives back what its caller sent.
      if (path.includes(a.tenantId)) continue;
      const req = stack.http[op.method](path)
        .query(fixture.queries?.[op.key] ?? {})
        .redirects(0);
      const body = fixture.bodies?.[op.key] ?? (op.jsonBody ? sample(op.jsonBody, doc) : undefined);
      const res = await (body === undefined ? req : req.send(body as object));
      if (res.status < 400) answered++;
      const seen = `${JSON.stringify(res.headers)}\n${res.text ?? JSON.stringify(res.body)}`;
      if (seen.includes(a.tenantId))
        leaks.push(`${op.key}: ${res.status} shows the organisation id: ${seen.slice(0, 300)}`);
    }
    expect(leaks).toEqual([]);
    expect(answered).toBeGreaterThan(5);
  });
});

/**
 * Tenant A's data, as stored: every row of every table with a tenant_id of A's organisation, and every row
 * whose id is one of the fixture's values (A's users, promotions ...). New tables are covered as they come.
 */
async function tenantData(stack: TestStack, a: Account, fixture: Fixture): Promise<Record<string, unknown[]>> {
  const em = stack.services.orm.em.fork();
  const ids = [a.tenantId, a.user.id, ...Object.values(fixture.params).flatMap((v) => Object.values(v))].filter((v) =>
    /^[0-9a-f-]{36}$/i.test(v),
  );
  const columns = await em.execute<{ table_name: string; column_name: string }[]>(
    `select table_name, column_name from information_schema.columns where table_schema = current_schema() and column_name in ('tenant_id', 'id') and table_name not like 'mikro_orm%'`,
  );
  const tables = new Map<string, Set<string>>();
  for (const { table_name, column_name } of columns)
    tables.set(table_name, (tables.get(table_name) ?? new Set()).add(column_name));
  const data: Record<string, unknown[]> = {};
  for (const [table, cols] of [...tables].sort(([x], [y]) => x.localeCompare(y))) {
    const where = [
      cols.has('tenant_id') && `tenant_id::text = ?`,
      cols.has('id') && `id::text = any(string_to_array(?, ','))`,
    ]
      .filter(Boolean)
      .join(' or ');
    const params = [...(cols.has('tenant_id') ? [a.tenantId] : []), ...(cols.has('id') ? [ids.join(',')] : [])];
    data[table] = await em.execute(`select * from "${table}" where ${where} order by 1`, params);
  }
  return data;
}
