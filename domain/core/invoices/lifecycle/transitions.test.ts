import type { SupplierInvoiceStatus } from '../../../../entities/core/supplierInvoice';
import { STATUS_CODES, supplierTransition, type SupplierAction } from './transitions';

describe('supplier invoice lifecycle', () => {
  it.each<[SupplierInvoiceStatus, SupplierAction, string]>([
    ['received', 'approve', 'approved'],
    ['received', 'refuse', 'refused'],
    ['received', 'pay', 'paid'],
    ['approved', 'pay', 'paid'],
    ['approved', 'refuse', 'refused'],
    ['approved', 'approve', 'same'],
    ['paid', 'pay', 'same'],
    ['refused', 'refuse', 'same'],
    ['refused', 'approve', 'refused'],
    ['refused', 'pay', 'refused'],
    ['paid', 'refuse', 'refused'],
    ['paid', 'approve', 'refused'],
  ])('%s + %s -> %s', (from, action, expected) => {
    const t = supplierTransition(from, action);
    expect('refused' in t ? 'refused' : t.same ? 'same' : t.to).toBe(expected);
  });

  it('codes the statuses as the reform does', () =>
    expect(STATUS_CODES).toEqual({ approved: '205', refused: '210', paid: '211', collected: '212' }));
});
