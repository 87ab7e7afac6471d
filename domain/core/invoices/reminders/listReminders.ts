import type { InvoiceReminder } from '../../../../entities/core/receivables';
import { addDays } from '../../../../lib/calendar';
import type { Lean } from '../../../../lib/lean';
import { toPage, type Page } from '../../../../lib/pagination';
import type { TenantContext } from '../../../context';
import { readAccountingSettings } from '../accounting/accountingSettings';
import { remindersOfInvoice, remindersPage } from '../accounting/store';
import { invoiceToday } from '../lookup';
import { findInvoice } from '../store';
import { REMINDER_WINDOW_DAYS } from './reminderStep';

export interface PlannedReminder {
  offsetDays: number;
  /** The day the step comes (due date + offset); the hourly pass mails it that day or within the window after. */
  on: string;
}

export interface InvoiceReminders {
  invoiceId: string;
  enabled: boolean;
  sent: Lean<InvoiceReminder>[];
  planned: PlannedReminder[];
}

const OPEN = new Set(['issued', 'partially_paid', 'partially_credited']);

/**
 * The reminders of one invoice (404 in another organisation): those mailed, oldest first, and the steps of the
 * organisation's plan still to come while it is open and reminders are on (none once paid or credited).
 */
export async function listInvoiceReminders(ctx: TenantContext, invoiceId: string): Promise<InvoiceReminders> {
  const invoice = await findInvoice(ctx.em, invoiceId);
  const settings = await readAccountingSettings(ctx.em, ctx.tenantId);
  const sent = await remindersOfInvoice.all(ctx, invoice.id);
  const today = invoiceToday();
  const done = new Set(sent.map((r) => r.offsetDays));
  const planned =
    invoice.kind === 'invoice' && OPEN.has(invoice.status) && invoice.dueDate && settings.remindersEnabled
      ? settings.reminderOffsets
          .filter((o) => !done.has(o) && addDays(invoice.dueDate!, o + REMINDER_WINDOW_DAYS) > today)
          .map((offsetDays) => ({ offsetDays, on: addDays(invoice.dueDate!, offsetDays) }))
      : [];
  return { invoiceId: invoice.id, enabled: settings.remindersEnabled, sent, planned };
}

export interface ListRemindersProps {
  limit: number;
  cursor?: string;
}

/** The reminders the organisation mailed, newest first. */
export async function listReminders(
  ctx: TenantContext,
  props: ListRemindersProps,
): Promise<Page<Lean<InvoiceReminder>>> {
  return toPage(await remindersPage.all(ctx, props.cursor ?? null, props.limit + 1), props.limit);
}
