import { newId } from '../../../entities/base';
import { tenantContext } from '../../../domain/context';
import { failImport, runImport } from '../../../domain/core/crm/imports/runImport';
import { DependencyUnavailableError } from '../../../lib/dependencies';
import { relayStagedJobs } from '../../../domain/jobs/relayStagedJobs';
import { crmImportQueue } from '../../../queues/crm';
import { IMPORT_PART } from '../../../domain/core/crm/store/imports';
import { createAccount, type Account } from '../../support/factories';
import { hubKey } from '../../support/crm';
import { startStack, type TestStack } from '../../support/stack';

/**
 * Customer imports checked at the call and stored in parts PostgreSQL upserts itself. Workers are off: each
 * test runs the import job itself, to stop it between parts.
 */
describe('CRM customer imports: checked at the call, upserted by parts', () => {
  let stack: TestStack;
  let org: Account;
  let key: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await createAccount(stack);
    key = await hubKey(stack, org);
    await stack.http
      .put('/api/customers/fields/seats')
      .set(org.auth)
      .send({ label: 'Seats', type: 'number' })
      .expect(201);
  });
  afterAll(() => stack.close());

  const sql = <T>(text: string, params: unknown[] = []) => stack.services.orm.em.fork().execute<T[]>(text, params);
  const records = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({
      externalId: `${prefix}-${i}`,
      name: `Person ${prefix} ${i}`,
      emails: [{ value: `${prefix}${i}@example.test` }],
      custom: { seats: i },
    }));
  const accept = async (body: unknown[]) => {
    const res = await stack.http
      .post('/api/public/hub/customers/bulk')
      .set('X-Server-API-Key', key)
      .send({ records: body });
    expect(res.status).toBe(202);
    return res.body as { id: string; failed: number; errors: unknown[] };
  };
  const run = (importId: string) => runImport(stack.services, { importId, tenantId: org.tenantId, kind: 'customers' });
  const parts = async (importId: string) =>
    (
      await sql<{ part: number; checked: boolean }>(
        'select part, checked from crm_import_payloads where import_id = ? order by part',
        [importId],
      )
    ).map((p) => [p.part, p.checked]);
  const status = async (importId: string) =>
    (await stack.http.get(`/api/public/hub/imports/${importId}`).set('X-Server-API-Key', key)).body;
  const count = async (prefix: string) =>
    Number(
      (
        await sql<{ n: number }>(
          `select count(*)::int as n from crm_customers where tenant_id = ? and external_id like ?`,
          [org.tenantId, `${prefix}-%`],
        )
      )[0].n,
    );

  it('reports refused records in the 202 answer and stores the valid ones as rows in parts', async () => {
    const accepted = await accept([
      ...records(IMPORT_PART + 1, 'a'),
      { externalId: 'a-bad', name: 'Bad', custom: { seats: 'many' } },
    ]);
    expect(accepted).toMatchObject({
      status: 'queued',
      total: IMPORT_PART + 2,
      failed: 1,
      errors: [expect.objectContaining({ index: IMPORT_PART + 1, externalId: 'a-bad', field: 'custom.seats' })],
    });
    expect(await parts(accepted.id)).toEqual([
      [0, true],
      [1, true],
    ]);
    await run(accepted.id);
    expect(await status(accepted.id)).toMatchObject({
      status: 'completed',
      created: IMPORT_PART + 1,
      updated: 0,
      failed: 1,
      errors: [expect.objectContaining({ externalId: 'a-bad' })],
    });
    expect(await parts(accepted.id)).toEqual([]);
    expect(await count('a')).toBe(IMPORT_PART + 1);
  });

  it('resumes at the first part left when the job stops between parts, without duplicating', async () => {
    const all = records(2 * IMPORT_PART + 10, 'b');
    const { id } = await accept(all);
    // The second part cannot be read: the job fails after committing the first.
    const [saved] = await sql<{ records: Buffer }>(
      'select records from crm_import_payloads where import_id = ? and part = 1',
      [id],
    );
    await sql(
      `update crm_import_payloads set records = convert_to('not json', 'UTF8') where import_id = ? and part = 1`,
      [id],
    );
    await expect(run(id)).rejects.toThrow();
    expect(await parts(id)).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(await status(id)).toMatchObject({ status: 'running', created: IMPORT_PART });
    // The retry, the stored rows restored: the rest is written once.
    await sql('update crm_import_payloads set records = ? where import_id = ? and part = 1', [saved.records, id]);
    expect(await run(id)).toMatchObject({ created: all.length, updated: 0 });
    expect(await count('b')).toBe(all.length);
    expect(await status(id)).toMatchObject({ status: 'completed', created: all.length, updated: 0, failed: 0 });
  });

  it('writes nothing on a replay for the records that do not change', async () => {
    const all = records(50, 'c');
    await run((await accept(all)).id);
    const versions = async () =>
      new Map(
        (
          await sql<{ external_id: string; v: string }>(
            `select external_id, xmin::text || updated_at::text as v from crm_customers where tenant_id = ? and external_id like 'c-%'`,
            [org.tenantId],
          )
        ).map((r) => [r.external_id, r.v]),
      );
    const before = await versions();
    all[3] = { ...all[3], name: 'Renamed' };
    all[4] = { ...all[4], custom: { seats: 999 } };
    const replay = await accept(all);
    expect(await run(replay.id)).toMatchObject({ created: 0, updated: 50 });
    const after = await versions();
    expect(
      [...after]
        .filter(([k, v]) => before.get(k) !== v)
        .map(([k]) => k)
        .sort(),
    ).toEqual(['c-3', 'c-4']);
    const changed = await sql<{ name: string; custom: object; search_text: string }>(
      `select name, custom, search_text from crm_customers where tenant_id = ? and external_id in ('c-3', 'c-4') order by external_id`,
      [org.tenantId],
    );
    expect(changed).toEqual([
      expect.objectContaining({ name: 'Renamed', search_text: expect.stringContaining('renamed') }),
      expect.objectContaining({ custom: { seats: 999 } }),
    ]);
  });

  it('checks in the worker the records stored unchecked before this version', async () => {
    const id = newId();
    const ctx = tenantContext(stack.services, org.tenantId);
    await ctx.em.execute(
      `insert into crm_imports (id, tenant_id, created_at, updated_at, kind, status, total) values (?, ?, now(), now(), 'customers', 'queued', 3)`,
      [id, org.tenantId],
    );
    const raw = [...records(2, 'd'), { externalId: 'd-0', name: 'Twice' }];
    await ctx.em.execute(
      'insert into crm_import_payloads (import_id, part, records, checked) values (?, 0, ?, false)',
      [id, Buffer.from(JSON.stringify(raw))],
    );
    expect(await run(id)).toMatchObject({
      created: 2,
      updated: 0,
      errors: [{ index: 2, externalId: 'd-0', field: 'externalId', message: 'repeats record 0 of this call' }],
    });
    expect(await status(id)).toMatchObject({ status: 'completed', created: 2, failed: 1 });
    expect(await parts(id)).toEqual([]);
  });

  it('marks an import that failed as a whole with the records not written, and no driver message', async () => {
    const { id } = await accept([
      ...records(IMPORT_PART + 5, 'e'),
      { externalId: 'e-bad', name: 'Bad', custom: { seats: 'many' } },
    ]);
    await sql(
      `update crm_import_payloads set records = convert_to('not json', 'UTF8') where import_id = ? and part = 1`,
      [id],
    );
    const error = await run(id).then(
      () => null,
      (err: Error) => err,
    );
    // What the worker does once the job has no attempt left.
    await failImport(stack.services, { importId: id, tenantId: org.tenantId, kind: 'customers' }, error!);
    const failed = await status(id);
    expect(failed).toMatchObject({ status: 'failed', total: IMPORT_PART + 6, created: IMPORT_PART, failed: 6 });
    expect(failed.errors).toEqual([
      expect.objectContaining({ index: IMPORT_PART + 5, field: 'custom.seats' }),
      expect.objectContaining({ index: -1, field: 'import' }),
    ]);
    expect(JSON.stringify(failed.errors)).not.toContain(error!.message);
    expect(await parts(id)).toEqual([]);

    // A deal import writes all its records or none: failed, every one counts as not written.
    const deals = await stack.http
      .post('/api/public/hub/deals/bulk')
      .set('X-Server-API-Key', key)
      .send({ records: [{ externalId: 'x' }, { externalId: 'y' }] });
    await sql(`update crm_import_payloads set records = convert_to('not json', 'UTF8') where import_id = ?`, [
      deals.body.id,
    ]);
    const job = { importId: deals.body.id, tenantId: org.tenantId, kind: 'deals' } as const;
    await failImport(
      stack.services,
      job,
      await runImport(stack.services, job).then(
        () => new Error('ran'),
        (err: Error) => err,
      ),
    );
    expect(await status(deals.body.id)).toMatchObject({
      status: 'failed',
      total: 2,
      created: 0,
      updated: 0,
      failed: 2,
    });
  });

  it('accepts an import whose job could not be enqueued: the job committed with it is enqueued by the relay', async () => {
    const addStaged = jest
      .spyOn(stack.services.queues, 'addStaged')
      .mockRejectedValueOnce(new DependencyUnavailableError('Redis'));
    let accepted: Awaited<ReturnType<typeof accept>>;
    try {
      accepted = await accept(records(3, 'f'));
    } finally {
      addStaged.mockRestore();
    }
    const jobId = `crm-import.${accepted.id}`;
    const queue = stack.services.queues.get(crmImportQueue);
    expect(await queue.getJobState(jobId)).toBe('unknown');
    expect(await sql('select queue from staged_jobs where job_id = ?', [jobId])).toEqual([{ queue: 'crm-import' }]);
    await relayStagedJobs(stack.services, 0);
    expect(await queue.getJobState(jobId)).toBe('waiting');
    expect(await sql('select 1 from staged_jobs where job_id = ?', [jobId])).toEqual([]);
    await run(accepted.id);
    expect(await status(accepted.id)).toMatchObject({ status: 'completed', created: 3 });
  });
});
