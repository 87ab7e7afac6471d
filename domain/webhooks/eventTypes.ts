/**
 * The events customers can subscribe to, with the payload (`data`) of each, version 1. The body of every delivery
 * is the envelope `{ id, type, version, timestamp, data }`; a change of a payload that could break a receiver gets
 * a new version (and both are documented while both are sent). The OpenAPI document lists each event in its
 * `webhooks` section (api/webhooks/openapiWebhooks.ts) from this catalogue.
 */

type Schema = Record<string, unknown>;
const str = (description: string): Schema => ({ type: 'string', description });
const id = (description: string): Schema => ({ type: 'string', format: 'uuid', description });
const nullable = (s: Schema): Schema => ({ ...s, type: [s.type as string, 'null'] });
const int = (description: string): Schema => ({ type: 'integer', description });
const time = (description: string): Schema => ({ type: 'string', format: 'date-time', description });
const date = (description: string): Schema => ({ type: 'string', format: 'date', description });

export interface CustomerData {
  id: string;
  name: string;
  kind: string;
  primaryEmail: string | null;
}
export interface DealData {
  id: string;
  title: string;
  customerId: string;
  amountCents: number;
  currency: string;
  reason: string | null;
}
export interface InvoiceData {
  id: string;
  number: string | null;
  customerId: string | null;
  status: string;
  grandTotalCents: number;
  paidCents: number;
  currency: string;
  dueDate: string | null;
}
export interface AppointmentData {
  id: string;
  serviceId: string;
  staffId: string;
  customerId: string | null;
  startAt: string;
  status: string;
  previousStartAt: string | null;
}
export interface EmployeeData {
  id: string;
  displayName: string;
  userId: string | null;
}
export interface LeaveData {
  id: string;
  employeeId: string;
  leaveType: string;
  startDate: string;
  endDate: string;
  status: string;
}
export interface FileData {
  id: string;
  name: string;
  size: number;
  contentType: string;
  parentId: string | null;
}
export interface ArticleData {
  id: string;
  spaceId: string;
  title: string;
  slug: string;
}
export interface VrSessionData {
  id: string;
  roomId: string;
  reason: string;
  durationSeconds: number;
  participants: number;
}
export interface MemberData {
  userId: string;
  roles: string[];
}
export interface TestData {
  endpointId: string;
  message: string;
}

/** The payload of each event type. */
export interface WebhookPayloads {
  'customer.created': CustomerData;
  'customer.updated': CustomerData;
  'deal.won': DealData;
  'deal.lost': DealData;
  'invoice.issued': InvoiceData;
  'invoice.paid': InvoiceData;
  'invoice.credited': InvoiceData;
  'appointment.booked': AppointmentData;
  'appointment.cancelled': AppointmentData;
  'appointment.rescheduled': AppointmentData;
  'employee.created': EmployeeData;
  'leave.requested': LeaveData;
  'leave.decided': LeaveData;
  'file.uploaded': FileData;
  'article.published': ArticleData;
  'vr.session.completed': VrSessionData;
  'member.joined': MemberData;
  'member.removed': MemberData;
  'webhook.test': TestData;
}
export type WebhookEventType = keyof WebhookPayloads;

const customer: Schema = {
  id: id('The customer'),
  name: str('Display name'),
  kind: str('`person` or `company`'),
  primaryEmail: nullable(str('Primary e-mail address')),
};
const deal: Schema = {
  id: id('The deal'),
  title: str('Title'),
  customerId: id('The customer of the deal'),
  amountCents: int('Amount in cents of currency'),
  currency: str('ISO 4217 currency'),
  reason: nullable(str('Why it was lost (deal.lost); null otherwise')),
};
const invoice: Schema = {
  id: id('The invoice'),
  number: nullable(str('Its number once issued')),
  customerId: nullable(id('The customer billed')),
  status: str('issued, partially_paid, paid, partially_credited or credited'),
  grandTotalCents: int('Total with VAT, in cents'),
  paidCents: int('Paid so far, in cents'),
  currency: str('ISO 4217 currency'),
  dueDate: nullable(date('Due date')),
};
const appointment: Schema = {
  id: id('The appointment'),
  serviceId: id('The service booked'),
  staffId: id('The staff member'),
  customerId: nullable(id('The customer, when known')),
  startAt: time('Start'),
  status: str('Status after the change'),
  previousStartAt: nullable(time('Start before a reschedule (appointment.rescheduled); null otherwise')),
};
const leave: Schema = {
  id: id('The leave request'),
  employeeId: id('The employee'),
  leaveType: str('Leave type key'),
  startDate: date('First day'),
  endDate: date('Last day'),
  status: str('pending (leave.requested), granted or refused (leave.decided)'),
};

export interface EventTypeDoc {
  summary: string;
  version: number;
  /** The resource prefix of `resource` (`customer:<id>`): deliveries of one resource to one endpoint keep their order. */
  resource: string;
  properties: Schema;
}

const doc = (summary: string, resource: string, properties: Schema): EventTypeDoc => ({
  summary,
  version: 1,
  resource,
  properties,
});

export const webhookEventTypes: Record<WebhookEventType, EventTypeDoc> = {
  'customer.created': doc('A customer (contact or company) was created', 'customer', customer),
  'customer.updated': doc("A customer's details were edited", 'customer', customer),
  'deal.won': doc('A deal was marked won', 'deal', deal),
  'deal.lost': doc('A deal was marked lost', 'deal', deal),
  'invoice.issued': doc('An invoice was issued (numbered, final)', 'invoice', invoice),
  'invoice.paid': doc('A payment settled an invoice in full', 'invoice', invoice),
  'invoice.credited': doc(
    'A credit note corrected an invoice (partly or fully): the invoice after it',
    'invoice',
    invoice,
  ),
  'appointment.booked': doc('An appointment was booked (by staff or on the storefront)', 'appointment', appointment),
  'appointment.cancelled': doc('An appointment was cancelled', 'appointment', appointment),
  'appointment.rescheduled': doc('An appointment moved to another time or staff member', 'appointment', appointment),
  'employee.created': doc('An employee record was created', 'employee', {
    id: id('The employee'),
    displayName: str('Name'),
    userId: nullable(id('Their member account, when linked')),
  }),
  'leave.requested': doc('A leave request was filed', 'leave', leave),
  'leave.decided': doc('A leave request was granted or refused', 'leave', leave),
  'file.uploaded': doc('A file was uploaded to the cloud drive', 'file', {
    id: id('The file'),
    name: str('File name'),
    size: int('Bytes'),
    contentType: str('Media type'),
    parentId: nullable(id('Folder; null at the root')),
  }),
  'article.published': doc('A knowledge article was published', 'article', {
    id: id('The article'),
    spaceId: id('Its space'),
    title: str('Title'),
    slug: str('Slug'),
  }),
  'vr.session.completed': doc('A VR training session ended, with its report summary', 'vr-session', {
    id: id('The session'),
    roomId: id('Its room'),
    reason: str('host_left, host_timeout or room_closed'),
    durationSeconds: int('Duration'),
    participants: int('Participants present at the end'),
  }),
  'member.joined': doc('Someone joined the organisation', 'member', {
    userId: id('The member'),
    roles: { type: 'array', items: { type: 'string' }, description: 'Their roles' },
  }),
  'member.removed': doc('A member left or was removed from the organisation', 'member', {
    userId: id('The member'),
    roles: { type: 'array', items: { type: 'string' }, description: 'The roles they had' },
  }),
  'webhook.test': doc('A test event sent on request (POST /api/webhooks/endpoints/{id}/test)', 'test', {
    endpointId: id('The endpoint tested'),
    message: str('A fixed text'),
  }),
};

/** Every type, in catalogue order. */
export const eventTypeNames = Object.keys(webhookEventTypes) as WebhookEventType[];

/** Types an endpoint may subscribe to (the test event goes only to the endpoint tested, whatever it subscribed). */
export const subscribableEventTypes = eventTypeNames.filter((t) => t !== 'webhook.test');

/** The resource key of an event: its prefix and the payload's id (a member event: its user). */
export function resourceOf<T extends WebhookEventType>(type: T, data: WebhookPayloads[T]): string {
  const key = 'id' in data ? data.id : 'userId' in data ? data.userId : data.endpointId;
  return `${webhookEventTypes[type].resource}:${key}`;
}

/** The JSON Schema of an event's whole body (the envelope with its data). */
export function envelopeSchema(type: WebhookEventType): Schema {
  const { summary, version, properties } = webhookEventTypes[type];
  return {
    type: 'object',
    description: `${summary}. Version ${version}.`,
    required: ['id', 'type', 'version', 'timestamp', 'data'],
    additionalProperties: false,
    properties: {
      id: str('The event id, also the webhook-id header: the same at every attempt and replay (dedupe on it)'),
      type: { type: 'string', const: type },
      version: { type: 'integer', const: version, description: 'Version of the payload schema' },
      timestamp: time('When the change committed'),
      data: {
        oneOf: [
          { type: 'object', required: Object.keys(properties), additionalProperties: false, properties },
          {
            type: 'object',
            description: 'The data cut down, when the body would pass WEBHOOK_MAX_PAYLOAD_BYTES: fetch the resource',
            required: ['truncated', 'resource'],
            additionalProperties: false,
            properties: { truncated: { type: 'boolean', const: true }, resource: str('e.g. `customer:<id>`') },
          },
        ],
      },
    },
  };
}
