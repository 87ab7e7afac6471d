import type { InvoiceKind, InvoiceStatus } from '../../../entities/core/invoice';
import { isOverdue, outstandingOf, settlementStatus } from './settlement';

const invoice = (
  paidCents: number,
  creditedCents: number,
  extra: { kind?: InvoiceKind; status?: InvoiceStatus; dueDate?: string | null } = {},
) => ({
  kind: extra.kind ?? 'invoice',
  status: extra.status ?? 'issued',
  grandTotalCents: 12_000,
  paidCents,
  creditedCents,
  dueDate: extra.dueDate ?? null,
});

describe('settlement of an issued invoice (grand total 120.00)', () => {
  it.each([
    ['nothing paid or credited', 0, 0, 'issued', 12_000],
    ['part paid', 5_000, 0, 'partially_paid', 7_000],
    ['all paid', 12_000, 0, 'paid', 0],
    ['part credited', 0, 2_000, 'partially_credited', 10_000],
    ['all credited', 0, 12_000, 'credited', 0],
    ['part credited, the rest paid', 10_000, 2_000, 'paid', 0],
    ['part credited, part paid', 5_000, 2_000, 'partially_paid', 5_000],
    ['paid, then credited in full', 12_000, 12_000, 'credited', 0],
  ] as const)('%s: %s', (_name, paid, credited, status, outstanding) => {
    expect(settlementStatus(invoice(paid, credited))).toBe(status);
    expect(outstandingOf(invoice(paid, credited))).toBe(outstanding);
  });

  it('leaves a credit note issued with nothing outstanding, and a draft with nothing outstanding', () => {
    expect(settlementStatus(invoice(0, 0, { kind: 'credit_note' }))).toBe('issued');
    expect(outstandingOf(invoice(0, 0, { kind: 'credit_note' }))).toBe(0);
    expect(outstandingOf(invoice(0, 0, { status: 'draft' }))).toBe(0);
  });

  it('is overdue only with something outstanding after the due date', () => {
    expect(isOverdue(invoice(0, 0, { dueDate: '2026-03-31' }), '2026-04-01')).toBe(true);
    expect(isOverdue(invoice(0, 0, { dueDate: '2026-03-31' }), '2026-03-31')).toBe(false);
    expect(isOverdue(invoice(12_000, 0, { dueDate: '2026-03-31' }), '2026-04-01')).toBe(false);
    expect(isOverdue(invoice(5_000, 0, { dueDate: '2026-03-31' }), '2026-04-01')).toBe(true);
    expect(isOverdue(invoice(0, 0), '2026-04-01')).toBe(false);
  });
});
