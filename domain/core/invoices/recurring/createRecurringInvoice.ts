import { RecurringInvoice, type RecurringInterval } from '../../../../entities/core/recurringInvoice';
import { badRequest, invalidField } from '../../../../lib/errors';
import { checkDocumentCurrency } from '../currencies';
import { readInvoiceSettings } from '../settings';
import { audit } from '../../../platform/audit';
import type { TenantContext } from '../../../context';
import { getCustomer } from '../../crm/getCustomer';
import type { LineInput } from '../amounts';
import { invoiceToday } from '../lookup';
import { amountFields, buyerOverridesOf, type QuoteDraftProps } from '../quotes/draft';
import { firstPeriodOf, runDateWithin } from './periods';

export interface CreateRecurringInvoiceProps {
  customerId: string;
  lines: LineInput[];
  /** ISO 4217; by default the accounting currency. */
  currency?: string;
  interval: RecurringInterval;
  /** Default: startOn's day. */
  dayOfPeriod?: number;
  /** Default today; not in the past. */
  startOn?: string;
  endOn?: string;
  maxCount?: number;
  autoIssue?: boolean;
  autoSend?: boolean;
  dueDays?: number;
  paymentTerms?: string;
  note?: string;
  buyer?: QuoteDraftProps['buyer'];
}

const text = (value: string | undefined) => value?.trim() || null;

/**
 * Creates a recurring invoice for a customer of the organisation (404 for an unknown one): its template lines
 * computed as an invoice's, its cadence, and its first period (the first run day on or after startOn). 400 for a
 * start in the past, an end before the first period, or autoSend without autoIssue.
 */
export async function createRecurringInvoice(
  ctx: TenantContext,
  props: CreateRecurringInvoiceProps,
): Promise<RecurringInvoice> {
  const startOn = props.startOn ?? invoiceToday();
  if (startOn < invoiceToday()) throw invalidField('startOn', 'startOn must be today or later');
  if (props.endOn !== undefined && props.endOn < startOn) throw invalidField('endOn', 'endOn must not precede startOn');
  const autoIssue = props.autoIssue ?? false;
  const autoSend = props.autoSend ?? false;
  if (autoSend && !autoIssue)
    throw invalidField('autoSend', 'autoSend needs autoIssue: only an issued invoice is mailed');
  const cadence = { interval: props.interval, dayOfPeriod: props.dayOfPeriod ?? Number(startOn.slice(8, 10)), startOn };
  const firstPeriod = firstPeriodOf(cadence);
  const bounds = { ...cadence, endOn: props.endOn ?? null, maxCount: props.maxCount ?? null, firstPeriod };
  const nextRunOn = runDateWithin(bounds, firstPeriod);
  if (!nextRunOn) throw invalidField('endOn', 'The schedule ends before its first period');
  await getCustomer(ctx, props.customerId);
  const { accountingCurrency } = await readInvoiceSettings(ctx.em, ctx.tenantId);
  const currency = checkDocumentCurrency(props.currency ?? accountingCurrency);
  // Issuing needs the day's rate, which no clock pass has: a schedule in another currency makes drafts.
  if (autoIssue && currency !== accountingCurrency)
    throw badRequest(
      'exchange_rate_required',
      `A schedule in ${currency} makes drafts (autoIssue false): issue each with the day's rate to ${accountingCurrency}`,
      [{ field: 'autoIssue', message: `must be false for a schedule not in ${accountingCurrency}` }],
    );
  const schedule = ctx.em.create(RecurringInvoice, {
    tenantId: ctx.tenantId,
    customerId: props.customerId,
    status: 'active',
    ...bounds,
    nextPeriod: firstPeriod,
    nextRunOn,
    autoIssue,
    autoSend,
    currency,
    dueDays: props.dueDays ?? null,
    paymentTerms: text(props.paymentTerms),
    note: text(props.note),
    ...amountFields(props.lines),
    buyerOverrides: buyerOverridesOf(props.buyer),
    createdBy: ctx.userId,
  });
  audit(ctx.em, {
    action: 'core.recurring_invoice.created',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'recurring_invoice',
    targetId: schedule.id,
  });
  await ctx.em.flush();
  return schedule;
}
