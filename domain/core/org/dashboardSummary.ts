import type { TenantContext } from '../../context';
import type { Permission } from '../../identity/permissionCatalogue';
import { quotaBytesOf } from '../../cloud/quota';
import { callerAccess, mayUse } from './access';
import type { BusinessModule } from './activeModules';
import { getBusiness } from './getBusiness';

export interface DashboardSummary {
  generatedAt: Date;
  timeZone: string;
  /** Start and end of today and start of this week (Monday), in the business time zone. */
  dayStart: Date;
  dayEnd: Date;
  weekStart: Date;
  modules: string[];
  appointmentsToday: { total: number; upcoming: number; completed: number; cancelled: number } | null;
  openTasks: { open: number; overdue: number; dueToday: number } | null;
  unpaidInvoices: { count: number; overdueCount: number; amounts: { currency: string; amountDueCents: number }[] } | null;
  dealsByStage: { pipelineId: string; pipelineName: string; stageId: string; stageName: string; position: number; count: number; amount: number }[] | null;
  storage: { usedBytes: number; reservedBytes: number; quotaBytes: number } | null;
  vrSessionsThisWeek: { count: number; running: number; participants: number } | null;
}

/** Which figure needs which module and permission (a figure the caller may not see is null). */
export const summaryGates: Record<string, { module: BusinessModule; permission: Permission | null }> = {
  appointmentsToday: { module: 'core', permission: null },
  openTasks: { module: 'core', permission: 'core.customers.read' },
  unpaidInvoices: { module: 'core', permission: 'core.invoices.read' },
  dealsByStage: { module: 'core', permission: 'core.customers.read' },
  storage: { module: 'cloud', permission: 'cloud.read' },
  vrSessionsThisWeek: { module: 'vr', permission: 'vr.reports.read' },
};

type Row = Record<string, string | number | Date | null>;
const n = (v: unknown) => Number(v ?? 0);

/**
 * The figures of the home dashboard, each one aggregate query on an index (no loop over rows): appointments
 * of today (tenant_id, start_at), open follow-ups (partial index on open activities), unpaid invoices
 * (tenant_id, kind, status), open deals per stage (tenant_id, pipeline_id, status, stage_id), the storage
 * counter row, VR sessions started this week (tenant_id, started_at). Days and weeks are the business's
 * time zone's. Figures of modules not in use, or needing a permission the caller lacks, are null.
 */
export async function dashboardSummary(ctx: TenantContext): Promise<DashboardSummary> {
  const [business, access] = await Promise.all([getBusiness(ctx), callerAccess(ctx)]);
  const tz = business.timeZone;
  const [bounds] = await ctx.em.execute<{ now: Date; day_start: Date; day_end: Date; week_start: Date }[]>(
    `select now() as now, date_trunc('day', now() at time zone ?) at time zone ? as day_start,
            (date_trunc('day', now() at time zone ?) + interval '1 day') at time zone ? as day_end,
            date_trunc('week', now() at time zone ?) at time zone ? as week_start`,
    [tz, tz, tz, tz, tz, tz],
  );
  const shown = (key: keyof typeof summaryGates) => mayUse(access, summaryGates[key]);
  const q = <T>(key: keyof typeof summaryGates, run: () => Promise<T>): Promise<T | null> => (shown(key) ? run() : Promise.resolve(null));
  const one = async (sql: string, params: unknown[]) => (await ctx.em.execute<Row[]>(sql, params))[0];
  const t = ctx.tenantId;

  const [appointmentsToday, openTasks, unpaidInvoices, dealsByStage, storage, vrSessionsThisWeek] = await Promise.all([
    q('appointmentsToday', async () => {
      const r = await one(
        `select count(*) filter (where status <> 'cancelled') as total, count(*) filter (where status in ('booked', 'confirmed') and start_at >= now()) as upcoming,
                count(*) filter (where status = 'completed') as completed, count(*) filter (where status = 'cancelled') as cancelled
         from booking_appointments where tenant_id = ? and start_at >= ? and start_at < ?`,
        [t, bounds.day_start, bounds.day_end],
      );
      return { total: n(r.total), upcoming: n(r.upcoming), completed: n(r.completed), cancelled: n(r.cancelled) };
    }),
    q('openTasks', async () => {
      const r = await one(
        `select count(*) as open, count(*) filter (where due_at < now()) as overdue, count(*) filter (where due_at >= ? and due_at < ?) as due_today
         from crm_activities where tenant_id = ? and completed_at is null and (type = 'task' or due_at is not null)`,
        [bounds.day_start, bounds.day_end, t],
      );
      return { open: n(r.open), overdue: n(r.overdue), dueToday: n(r.due_today) };
    }),
    q('unpaidInvoices', async () => {
      const rows = await ctx.em.execute<Row[]>(
        `select currency, count(*) as count, count(*) filter (where due_date < (now() at time zone ?)::date) as overdue, sum(grand_total_cents - paid_cents - credited_cents) as due
         from inv_invoices where tenant_id = ? and kind = 'invoice' and status in ('issued', 'partially_paid', 'partially_credited') and grand_total_cents > paid_cents + credited_cents
         group by currency order by currency`,
        [tz, t],
      );
      return {
        count: rows.reduce((a, r) => a + n(r.count), 0),
        overdueCount: rows.reduce((a, r) => a + n(r.overdue), 0),
        amounts: rows.map((r) => ({ currency: String(r.currency), amountDueCents: n(r.due) })),
      };
    }),
    q('dealsByStage', async () => {
      const rows = await ctx.em.execute<Row[]>(
        `select s.pipeline_id, p.name as pipeline_name, s.id as stage_id, s.name as stage_name, s.position, count(d.id) as count, coalesce(sum(d.amount), 0) as amount
         from crm_pipeline_stages s join crm_pipelines p on p.id = s.pipeline_id
         left join crm_deals d on d.tenant_id = s.tenant_id and d.pipeline_id = s.pipeline_id and d.status = 'open' and d.stage_id = s.id
         where s.tenant_id = ? group by s.pipeline_id, p.name, s.id, s.name, s.position order by p.name, s.pipeline_id, s.position`,
        [t],
      );
      return rows.map((r) => ({ pipelineId: String(r.pipeline_id), pipelineName: String(r.pipeline_name), stageId: String(r.stage_id), stageName: String(r.stage_name), position: n(r.position), count: n(r.count), amount: n(r.amount) }));
    }),
    q('storage', async () => {
      const [r, quotaBytes] = await Promise.all([one(`select used_bytes, reserved_bytes from cloud_usage where tenant_id = ?`, [t]), quotaBytesOf(ctx.services, t)]);
      return { usedBytes: n(r?.used_bytes), reservedBytes: n(r?.reserved_bytes), quotaBytes };
    }),
    q('vrSessionsThisWeek', async () => {
      const r = await one(
        `select count(*) as count, count(*) filter (where status = 'running') as running,
                (select count(distinct p.user_id) from vr_session_participants p where p.tenant_id = ? and p.session_id in (select id from vr_sessions where tenant_id = ? and started_at >= ?)) as participants
         from vr_sessions where tenant_id = ? and started_at >= ?`,
        [t, t, bounds.week_start, t, bounds.week_start],
      );
      return { count: n(r.count), running: n(r.running), participants: n(r.participants) };
    }),
  ]);
  return {
    generatedAt: new Date(bounds.now),
    timeZone: tz,
    dayStart: new Date(bounds.day_start),
    dayEnd: new Date(bounds.day_end),
    weekStart: new Date(bounds.week_start),
    modules: access.modules,
    appointmentsToday,
    openTasks,
    unpaidInvoices,
    dealsByStage,
    storage,
    vrSessionsThisWeek,
  };
}
