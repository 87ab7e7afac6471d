import type { Customer } from '../../entities/core/customer';
import type { Deal } from '../../entities/core/deal';
import type { Appointment } from '../../entities/core/booking';
import type { Invoice } from '../../entities/core/invoice';
import type { HrLeaveRequest } from '../../entities/hr/leave';
import type { AppointmentData, CustomerData, DealData, InvoiceData, LeaveData } from './eventTypes';

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

export const invoiceData = (i: Invoice): InvoiceData => ({
  id: i.id,
  number: i.number ?? null,
  customerId: i.customerId ?? null,
  status: i.status,
  grandTotalCents: Number(i.grandTotalCents),
  paidCents: Number(i.paidCents),
  currency: i.currency,
  dueDate: i.dueDate ?? null,
});

/** A leave request with its type's code (the request row holds only the type's id). */
export const leaveData = (r: HrLeaveRequest, leaveType: string): LeaveData => ({
  id: r.id,
  employeeId: r.employeeId,
  leaveType,
  startDate: r.startDate,
  endDate: r.endDate,
  status: r.status,
});

export const appointmentData = (a: Appointment, previousStartAt: Date | null = null): AppointmentData => ({
  id: a.id,
  serviceId: a.serviceId,
  staffId: a.staffId,
  customerId: a.customerId ?? null,
  startAt: a.startAt.toISOString(),
  status: a.status,
  previousStartAt: previousStartAt?.toISOString() ?? null,
});
