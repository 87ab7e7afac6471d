import type { Invoice } from '../../../entities/core/invoice';
import { emitEvent } from '../../webhooks/emitEvent';
import { invoiceData } from '../../webhooks/payloads';
import { audit } from '../../platform/audit';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { getCustomer } from '../crm/getCustomer';
import { buyerOf } from './buyer';
import { checkIssuable } from './completeness';
import { checkFrenchRules } from './checkFrenchRules';
import { frenchCtcTerms } from './frenchCtc';
import { addDays } from '../../../lib/calendar';
import { invoiceToday, notDraft } from './lookup';
import { takeNumber } from './numbering';
import { loadSeller } from './seller';
import { readInvoiceSettings } from './settings';
import { findInvoice } from './store';
import { parseRate, rateAtIssue } from './currencies';

/**
 * Issues a draft: in one transaction, locks it, checks it is complete, takes the next number of the invoice
 * sequence (gapless, see numbering.ts), dates it today, copies seller and buyer, and sets the due date
 * (issue date + the organisation's dueDays when the draft has none) and payment terms; in the French reform's
 * scope it fixes the CTC terms (frenchCtc.ts) and holds the document to the French rules (checkFrenchRules.ts). It records the
 * organisation's accounting currency and, for a document in another currency, the exchange rate (given now, else the
 * draft's; 400 `exchange_rate_required` without one: currencies.ts). From then on the
 * database refuses any change but its settlement. Issuing an issued invoice answers 409 invoice_not_draft.
 */
export async function issueInvoice(
  ctx: TenantContext,
  id: string,
  options: { exchangeRate?: string } = {},
): Promise<Invoice> {
  const exchangeRate = options.exchangeRate === undefined ? null : parseRate(options.exchangeRate);
  const invoice = await ctx.em.transactional(async (em) => {
    const draft = await findInvoice(em, id, { lock: true });
    await issueLockedDraft({ ...ctx, em }, draft, undefined, exchangeRate);
    return draft;
  });
  await notifyIssued(ctx, invoice);
  return invoice;
}

/**
 * The issuing itself, inside the caller's transaction on a draft whose row it locked (issueInvoice, and the
 * recurring invoices' clock pass): completeness, number, dates, seller and buyer, the French CTC terms and
 * rules, audit and webhook event.
 * `dueDays` replaces the organisation's for a draft without a due date.
 */
export async function issueLockedDraft(
  tx: TenantContext,
  draft: Invoice,
  dueDays?: number | null,
  exchangeRate: string | null = null,
): Promise<void> {
  const em = tx.em;
  if (draft.status !== 'draft') throw notDraft(draft);
  const customer = await getCustomer(tx, draft.customerId);
  const settings = await readInvoiceSettings(em, tx.tenantId);
  const accountingCurrency = settings.accountingCurrency;
  // A rate given now wins over the draft's; a draft's rate left from another accounting currency is dropped.
  const rate = rateAtIssue(
    draft.currency,
    accountingCurrency,
    exchangeRate ?? (draft.currency === accountingCurrency ? null : (draft.exchangeRate ?? null)),
  );
  const seller = await loadSeller(tx);
  const buyer = buyerOf(customer, draft.buyerOverrides);
  const issueDate = invoiceToday();
  checkIssuable(draft, seller, buyer, issueDate);
  const { year, sequenceNo, number } = await takeNumber(em, tx.tenantId, 'invoice', issueDate, settings);
  em.assign(draft, {
    status: 'issued',
    number,
    sequenceYear: year,
    sequenceNo,
    issueDate,
    issuedAt: new Date(),
    dueDate: draft.dueDate ?? addDays(issueDate, dueDays ?? settings.dueDays),
    paymentTerms: draft.paymentTerms ?? settings.paymentTerms,
    seller,
    buyer,
    accountingCurrency,
    exchangeRate: rate,
    ctc: frenchCtcTerms(draft.operationCategory, seller, buyer),
  });
  checkFrenchRules(draft);
  audit(em, {
    action: 'core.invoice.issued',
    actorId: tx.userId,
    tenantId: tx.tenantId,
    targetType: 'invoice',
    targetId: draft.id,
    data: { number },
  });
  emitEvent(em, tx.tenantId, 'invoice.issued', invoiceData(draft));
}

/** The in-app notification of an issued invoice, once its transaction committed. */
export async function notifyIssued(ctx: Pick<TenantContext, 'services' | 'tenantId'>, invoice: Invoice): Promise<void> {
  await notify(ctx.services, 'core', [
    {
      event: 'invoice.issued',
      tenantId: ctx.tenantId,
      subject: { invoiceId: invoice.id, customerId: invoice.customerId },
      data: {
        number: invoice.number,
        kind: invoice.kind,
        grandTotalCents: invoice.grandTotalCents,
        dueDate: invoice.dueDate,
      },
    },
  ]);
}
