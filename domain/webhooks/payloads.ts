import type { Customer } from '../../entities/core/customer';
import type { Deal } from '../../entities/core/deal';
import type { CustomerData, DealData } from './eventTypes';

/** The payload of each event from the entity that changed: what the one-line emitEvent calls of the modules pass. */

export const customerData = (c: Customer): CustomerData => ({
  id: c.id,
  name: c.name,
  kind: c.kind,
  primaryEmail: c.primaryEmail ?? null,
});

export const dealData = (d: Deal): DealData => ({
  id: d.id,
  title: d.title,
  customerId: d.customerId,
  amountCents: Number(d.amount),
  currency: d.currency,
  reason: d.lostReason ?? null,
});
