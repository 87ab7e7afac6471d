import type { RecurringInvoice } from '../../../../entities/core/recurringInvoice';
import { badRequest, invalidField } from '../../../../lib/errors';
import { audit } from '../../../platform/audit';
import type { TenantContext } from '../../../context';
import { getCustomer } from '../../crm/getCustomer';
import type { LineInput } from '../amounts';
import { invoiceToday } from '../lookup';
import { readInvoiceSettings } from '../settings';
import { amountFields, buyerOverridesOf, type QuoteDraftProps } from '../quotes/draft';
import { recurringEnded } from './pauseRecurringInvoice';
import { reschedule, type TimingChange } from './reschedule';
import { findSchedule, invoicedPeriodsOf } from './store';

/** What a PATCH may change: only the fields it names; null clears endOn, maxCount, dueDays, paymentTerms, note. */
export interface UpdateRecurringInvoiceProps extends TimingChange {
  customerId?: string;
  lines?: LineInput[];
  autoIssue?: boolean;
  autoSend?: boolean;
  dueDays?: number | null;
  paymentTerms?: string | null;
  note?: string | null;
  buyer?: QuoteDraftProps['buyer'];
}

const text = (value: string | null | undefined) => value?.trim() || null;

/**
 * Changes a recurring invoice (404 in another organisation, 409 recurring_invoice_ended once ended), under its row
 * lock: the clock's pass takes the same lock to invoice a period, so an edit and an issue at the same time run one
 * after the other and the period is invoiced once, by the rule in force when its turn comes (the runs' unique
 * (schedule, period) key decides in any case). Invoices and drafts already made stay as they are; the new template,
 * customer and options apply from the next period, the timing as `reschedule` says.
 */
export async function updateRecurringInvoice(
  ctx: TenantContext,
  id: string,
  props: UpdateRecurringInvoiceProps,
): Promise<RecurringInvoice> {
  if (props.customerId !== undefined) await getCustomer(ctx, props.customerId);
  return ctx.em.transactional(async (em) => {
    const schedule = await findSchedule(em, id, { lock: true });
    if (schedule.status === 'ended') throw recurringEnded();
    const autoIssue = props.autoIssue ?? schedule.autoIssue;
    const autoSend = props.autoSend ?? (props.autoIssue === false ? false : schedule.autoSend);
    if (autoSend && !autoIssue)
      throw invalidField('autoSend', 'autoSend needs autoIssue: only an issued invoice is mailed');
    if (autoIssue && !schedule.autoIssue) {
      const { accountingCurrency } = await readInvoiceSettings(em, ctx.tenantId);
      if (schedule.currency !== accountingCurrency)
        throw badRequest(
          'exchange_rate_required',
          `A schedule in ${schedule.currency} makes drafts (autoIssue false): issue each with the day's rate to ${accountingCurrency}`,
          [{ field: 'autoIssue', message: `must be false for a schedule not in ${accountingCurrency}` }],
        );
    }
    const timing = reschedule(schedule, props, await invoicedPeriodsOf(em, ctx.tenantId, schedule.id), invoiceToday());
    const before = { status: schedule.status, nextRunOn: schedule.nextRunOn ?? null };
    em.assign(schedule, {
      ...timing,
      autoIssue,
      autoSend,
      ...(props.customerId !== undefined ? { customerId: props.customerId } : {}),
      ...(props.lines ? amountFields(props.lines) : {}),
      ...(props.dueDays !== undefined ? { dueDays: props.dueDays } : {}),
      ...(props.paymentTerms !== undefined ? { paymentTerms: text(props.paymentTerms) } : {}),
      ...(props.note !== undefined ? { note: text(props.note) } : {}),
      ...(props.buyer !== undefined ? { buyerOverrides: buyerOverridesOf(props.buyer) } : {}),
    });
    audit(em, {
      action: 'core.recurring_invoice.updated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'recurring_invoice',
      targetId: schedule.id,
      data: {
        fields: Object.keys(props).filter((key) => props[key as keyof UpdateRecurringInvoiceProps] !== undefined),
        from: before,
        to: { status: timing.status, nextRunOn: timing.nextRunOn },
      },
    });
    return schedule;
  });
}
