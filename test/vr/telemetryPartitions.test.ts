import { migratorOf } from '../../lib/db';
import { maintainPartitions } from '../../domain/vr/maintainPartitions';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';

const MIGRATION = 'Migration20261213090000_vr_telemetry_partitions';
const monthStart = (offset: number, from = new Date()) =>
  new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + offset, 1));

/**
 * vr_telemetry_events partitioned by month: the migration turns a table holding rows into the first partition
 * without losing one, new months land in their partitions, reads bounded in time touch only theirs, and the
 * clock's pass drops what is past the retention through the owner's functions only.
 */
describe('telemetry partitions', () => {
  let stack: TestStack;
  let vr: VrOrg;
  let sessionId: string;
  beforeAll(async () => {
    stack = await startStack({ env: { VR_TELEMETRY_RETENTION_MONTHS: '12', VR_TELEMETRY_PARTITIONS_AHEAD: '1' } });
    vr = await vrOrg(stack, 1);
    const room = await createRoom(stack, vr.admin, { participantIds: [vr.members[0].user.id] });
    sessionId = (await stack.http.post(`/rooms/${room.id}/host`).set(vr.members[0].auth).expect(201)).body.id;
  });
  afterAll(() => stack.close());

  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await stack.services.orm.em.fork().getConnection().execute(text, params)) as T[];
  const send = (label: string) =>
    stack.http
      .post(`/sessions/${sessionId}/telemetry`)
      .set(vr.members[0].auth)
      .send({ events: [{ type: 'marker', label, detail: '' }] })
      .expect(202);
  const stored = async (label: string) =>
    (await sql<{ n: number }>(`select count(*)::int as n from vr_telemetry_events where label = ?`, [label]))[0].n;
  const rowsByPartition = async () =>
    Object.fromEntries(
      (
        await sql<{ part: string; n: number }>(
          `select tableoid::regclass::text as part, count(*)::int as n from vr_telemetry_events group by 1 order by 1`,
        )
      ).map((r) => [r.part, r.n]),
    );

  it('keeps every row of the table it partitions, and takes new ones at once', async () => {
    const owner = await stack.asOwner();
    await migratorOf(owner).down({ migrations: [MIGRATION] });
    expect(
      (await sql<{ relkind: string }>(`select relkind from pg_class where relname = 'vr_telemetry_events'`))[0],
    ).toEqual({
      relkind: 'r',
    });
    await send('before');
    await eventually(async () => (await stored('before')) === 1);
    const [{ max: lastId }] = await sql<{ max: string }>(`select max(id)::text as max from vr_telemetry_events`);

    await migratorOf(owner).up({ migrations: [MIGRATION] });
    expect(
      (await sql<{ relkind: string }>(`select relkind from pg_class where relname = 'vr_telemetry_events'`))[0],
    ).toEqual({
      relkind: 'p',
    });
    expect(await stored('before')).toBe(1);
    expect(await rowsByPartition()).toEqual({ vr_telemetry_events_legacy: 1 });

    await send('after');
    await eventually(async () => (await stored('after')) === 1);
    const [{ id }] = await sql<{ id: string }>(`select id::text as id from vr_telemetry_events where label = 'after'`);
    expect(BigInt(id)).toBeGreaterThan(BigInt(lastId));
    // A row of next month (a batch accepted then) goes to that month's partition, created by the migration.
    const next = monthStart(1);
    await sql(
      `insert into vr_telemetry_events (tenant_id, session_id, user_id, type, label, detail, received_at) values (?, ?, ?, 'marker', 'next', '', ?)`,
      [vr.admin.tenantId, sessionId, vr.members[0].user.id, new Date(next.getTime() + 3_600_000).toISOString()],
    );
    const name = `vr_telemetry_events_y${next.getUTCFullYear()}m${String(next.getUTCMonth() + 1).padStart(2, '0')}`;
    expect(await rowsByPartition()).toEqual({ vr_telemetry_events_legacy: 2, [name]: 1 });
  });

  it('reads a month from its partition only', async () => {
    const from = monthStart(1);
    const [{ 'QUERY PLAN': plan }] = await sql<{ 'QUERY PLAN': unknown }>(
      `explain (format json) select count(*) from vr_telemetry_events where session_id = ? and received_at >= ? and received_at < ?`,
      [sessionId, from.toISOString(), monthStart(2).toISOString()],
    );
    const scanned = [...JSON.stringify(plan).matchAll(/"Relation Name":"([^"]+)"/g)].map((m) => m[1]);
    expect([...new Set(scanned)]).toEqual([
      `vr_telemetry_events_y${from.getUTCFullYear()}m${String(from.getUTCMonth() + 1).padStart(2, '0')}`,
    ]);
  });

  it('creates the months ahead and drops those past the retention, and nothing else', async () => {
    // The migration made this month and the next two: nothing to do today.
    expect(await maintainPartitions(stack.services)).toEqual({ created: [], dropped: [] });
    // 13 months on, the first partition (this month's rows) is past 12 months of retention.
    const later = monthStart(13);
    const pass = await maintainPartitions(stack.services, later);
    expect(pass.dropped).toEqual(['vr_telemetry_events_legacy']);
    expect(pass.created).toHaveLength(2);
    expect(await stored('before')).toBe(0);
    expect(await stored('next')).toBe(1);
    // The session itself, its counters and steps are kept.
    await stack.http.get(`/sessions/${sessionId}`).set(vr.admin.auth).expect(200);
    expect(await maintainPartitions(stack.services, later)).toEqual({ created: [], dropped: [] });
  });

  it("lets the dynos' role drop telemetry partitions only", async () => {
    await expect(sql(`select vr_telemetry_partition_drop('hr_clock_events')`)).rejects.toThrow(
      /not a partition of vr_telemetry_events/,
    );
    const next = monthStart(1);
    const name = `vr_telemetry_events_y${next.getUTCFullYear()}m${String(next.getUTCMonth() + 1).padStart(2, '0')}`;
    await expect(sql(`drop table ${name}`)).rejects.toThrow(/must be owner/);
    await expect(sql(`select vr_telemetry_partition_create('2027-03-15')`)).rejects.toThrow(/first day of a month/);
  });
});
