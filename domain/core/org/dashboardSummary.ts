import type { TenantContext } from '../../context';
import type { Permission } from '../../identity/permissionCatalogue';
import { isKnownZone } from '../../../lib/timeZones';
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
  unpaidInvoices: {
    count: number;
    overdueCount: number;
    amounts: { currency: string; amountDueCents: number }[];
  } | null;
  dealsByStage:
    | {
        pipelineId: string;
        pipelineName: string;
        stageId: string;
        stageName: string;
        position: number;
        count: number;
        amount: number;
      }[]
    | null;
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

type SummaryKey = keyof typeof summaryGates;

/**
 * Each figure as one scalar subquery returning JSON (SQL and its parameters). `b` holds the bounds of today and
 * this week in the business time zone; `?` parameters are the tenant (and the time zone where named).
 */
const figures: Record<Exclude<SummaryKey, 'storage'>, { sql: string; params: (t: string, tz: string) => unknown[] }> = {
  // Index (tenant_id, start_at): today's rows only.
  appointmentsToday: {
    sql: `(select json_build_object('total', count(*) filter (where status <> 'cancelled'), 'upcoming', count(*) filter (where status in ('booked', 'confirmed') and start_at >= now()),
            'completed', count(*) filter (where status = 'completed'), 'cancelled', count(*) filter (where status = 'cancelled'))
           from booking_appointments where tenant_id = ? and start_at >= b.day_start and start_at < b.day_end)`,
    params: (t) => [t],
  },
  // Partial index crm_activities_open_due (tenant_id, due_at) where completed_at is null: open rows only.
  openTasks: {
    sql: `(select json_build_object('open', count(*), 'overdue', count(*) filter (where due_at < now()), 'dueToday', count(*) filter (where due_at >= b.day_start and due_at < b.day_end))
           from crm_activities where tenant_id = ? and completed_at is null and (type = 'task' or due_at is not null))`,
    params: (t) => [t],
  },
  // Index (tenant_id, kind, status, id): issued invoices with something due.
  unpaidInvoices: {
    sql: `(select json_build_object('count', coalesce(sum(c.count), 0), 'overdueCount', coalesce(sum(c.overdue), 0),
            'amounts', coalesce(json_agg(json_build_object('currency', c.currency, 'amountDueCents', c.due) order by c.currency), '[]'::json))
           from (select currency, count(*) as count, count(*) filter (where due_date < (now() at time zone ?)::date) as overdue, sum(grand_total_cents - paid_cents - credited_cents) as due
                 from inv_invoices where tenant_id = ? and kind = 'invoice' and status in ('issued', 'partially_paid', 'partially_credited') and grand_total_cents > paid_cents + credited_cents
                 group by currency) c)`,
    params: (t, tz) => [tz, t],
  },
  // Open deals aggregated in one pass (tenant_id, pipeline_id, status, stage_id), then joined to every stage (empty ones with 0).
  dealsByStage: {
    sql: `(select coalesce(json_agg(json_build_object('pipelineId', s.pipeline_id, 'pipelineName', p.name, 'stageId', s.id, 'stageName', s.name, 'position', s.position,
                   'count', coalesce(a.count, 0), 'amount', coalesce(a.amount, 0)) order by p.name, s.pipeline_id, s.position), '[]'::json)
           from crm_pipeline_stages s join crm_pipelines p on p.id = s.pipeline_id
           left join (select stage_id, count(*) as count, sum(amount) as amount from crm_deals where tenant_id = ? and status = 'open' group by stage_id) a on a.stage_id = s.id
           where s.tenant_id = ?)`,
    params: (t) => [t, t],
  },
  // Index (tenant_id, started_at): this week's sessions only.
  vrSessionsThisWeek: {
    sql: `(select json_build_object('count', count(*), 'running', count(*) filter (where status = 'running'),
            'participants', (select count(distinct p.user_id) from vr_session_participants p where p.tenant_id = ? and p.session_id in (select id from vr_sessions where tenant_id = ? and started_at >= b.week_start)))
           from vr_sessions where tenant_id = ? and started_at >= b.week_start)`,
    params: (t) => [t, t, t],
  },
};

/**
 * The figures of the home dashboard in one statement (one round trip, one pooled connection), each figure an
 * aggregate subquery on an index (no loop over rows in the application): appointments of today, open
 * follow-ups, unpaid invoices, open deals per stage, VR sessions started this week; storage from the usage
 * counter row. Days and weeks are the business's time zone's. Figures of modules not in use, or needing a
 * permission the caller lacks, are null (and not queried).
 */
export async function dashboardSummary(ctx: TenantContext): Promise<DashboardSummary> {
  const [business, access] = await Promise.all([getBusiness(ctx), callerAccess(ctx)]);
  // A zone stored before settings checked it against PostgreSQL would fail the statement: read as UTC instead.
  const tz = (await isKnownZone(ctx.em, business.timeZone)) ? business.timeZone : 'UTC';
  const t = ctx.tenantId;
  const shown = (Object.keys(figures) as (keyof typeof figures)[]).filter((k) => mayUse(access, summaryGates[k]));
  const withStorage = mayUse(access, summaryGates.storage);
  const [row] = await ctx.em.execute<Record<string, unknown>[]>(
    `select now() as now, b.day_start, b.day_end, b.week_start
            ${shown.map((k) => `, ${figures[k].sql} as "${k}"`).join('')}
            ${withStorage ? `, (select json_build_object('usedBytes', used_bytes, 'reservedBytes', reserved_bytes) from cloud_usage where tenant_id = ?) as storage` : ''}
     from (select date_trunc('day', now() at time zone ?) at time zone ? as day_start,
                  (date_trunc('day', now() at time zone ?) + interval '1 day') at time zone ? as day_end,
                  date_trunc('week', now() at time zone ?) at time zone ? as week_start) b`,
    [...shown.flatMap((k) => figures[k].params(t, tz)), ...(withStorage ? [t] : []), tz, tz, tz, tz, tz, tz],
  );
  const figure = <T>(k: keyof typeof figures): T | null => (shown.includes(k) ? (row[k] as T) : null);
  const usage = row.storage as { usedBytes: number; reservedBytes: number } | null | undefined;
  return {
    generatedAt: new Date(row.now as Date),
    timeZone: tz,
    dayStart: new Date(row.day_start as Date),
    dayEnd: new Date(row.day_end as Date),
    weekStart: new Date(row.week_start as Date),
    modules: access.modules,
    appointmentsToday: figure('appointmentsToday'),
    openTasks: figure('openTasks'),
    unpaidInvoices: figure('unpaidInvoices'),
    dealsByStage: figure('dealsByStage'),
    storage: withStorage
      ? {
          usedBytes: Number(usage?.usedBytes ?? 0),
          reservedBytes: Number(usage?.reservedBytes ?? 0),
          quotaBytes: await quotaBytesOf(ctx.services, t),
        }
      : null,
    vrSessionsThisWeek: figure('vrSessionsThisWeek'),
  };
}
