import type { EmittedStatus, SupplierInvoiceStatus } from '../../../../entities/core/supplierInvoice';

/** What the buyer does with a received invoice. */
export type SupplierAction = 'approve' | 'refuse' | 'pay';

/** The reform's lifecycle codes (CDAR) of the statuses the suite emits. */
export const STATUS_CODES: Record<EmittedStatus, string> = {
  approved: '205',
  refused: '210',
  paid: '211',
  collected: '212',
};

type Moved = Exclude<SupplierInvoiceStatus, 'received'>;

const target: Record<SupplierAction, Moved> = { approve: 'approved', refuse: 'refused', pay: 'paid' };

/**
 * The status an action leads a received invoice to: `same` when it is there already (the action is answered
 * again, nothing new is emitted), `refused` with the reason the move is not allowed. A received invoice is
 * approved, refused or paid; an approved one paid or refused; a refused or paid one is final.
 */
export function supplierTransition(
  current: SupplierInvoiceStatus,
  action: SupplierAction,
): { to: Moved; same: boolean } | { refused: string } {
  const to = target[action];
  if (current === to) return { to, same: true };
  if (current === 'received') return { to, same: false };
  if (current === 'approved' && to !== 'approved') return { to, same: false };
  return { refused: `a ${current} invoice cannot be ${to}` };
}
