import type { Customer } from '../../entities/core/customer';
import type { Deal } from '../../entities/core/deal';
import type { Appointment } from '../../entities/core/booking';
import type { Invoice } from '../../entities/core/invoice';
import type { HrEmployee } from '../../entities/hr/employee';
import type { HrLeaveRequest } from '../../entities/hr/leave';
import type { KnowledgeArticle } from '../../entities/knowledge/article';
import type { VrSession } from '../../entities/vr/session';
import type {
  AppointmentData,
  ArticleData,
  CustomerData,
  DealData,
  EmployeeData,
  InvoiceData,
  LeaveData,
  VrSessionData,
} from './eventTypes';

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

/** A provisional userId (a hired candidate without an account yet) is no member account: null. */
export const employeeData = (e: HrEmployee): EmployeeData => ({
  id: e.id,
  displayName: `${e.firstName} ${e.lastName}`.trim(),
  userId: e.userProvisional ? null : (e.userId ?? null),
});

export const articleData = (a: KnowledgeArticle): ArticleData => ({
  id: a.id,
  spaceId: a.spaceId,
  title: a.title,
  slug: a.slug,
});

/** A session as it ended (why, when), with how many were present at the end: the report summary of the event. */
export const vrSessionData = (s: VrSession, reason: string, endedAt: Date, present: number): VrSessionData => ({
  id: s.id,
  roomId: s.roomId,
  reason,
  durationSeconds: Math.max(0, Math.round((endedAt.getTime() - s.startedAt.getTime()) / 1000)),
  participants: present,
});
