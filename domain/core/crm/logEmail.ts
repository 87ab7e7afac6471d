import type { TenantContext } from '../../context';
import { syncActivities, type SyncResult } from './syncActivities';

export interface Mailbox {
  email: string;
  name?: string;
}

export interface LoggedEmail {
  /** The message's Message-ID: logging it again updates the same activities. */
  messageId: string;
  /** inbound: received from a contact (logged on the sender); outbound: sent to contacts (logged on each recipient). */
  direction: 'inbound' | 'outbound';
  from: Mailbox;
  to: Mailbox[];
  cc?: Mailbox[];
  subject: string;
  body?: string;
  sentAt: Date;
}

/**
 * Logs an e-mail as a completed `email` activity on each contact it was exchanged with (found by primary
 * e-mail, or created as a person), idempotently per message and contact.
 */
export async function logEmail(ctx: TenantContext, mail: LoggedEmail): Promise<SyncResult> {
  const counterparts = mail.direction === 'inbound' ? [mail.from] : [...mail.to, ...(mail.cc ?? [])];
  const unique = [...new Map(counterparts.map((m) => [m.email.trim().toLowerCase(), m])).values()];
  return syncActivities(
    ctx,
    'email',
    unique.map((m) => ({
      externalId: mail.messageId,
      customerEmail: m.email,
      customerName: m.name,
      type: 'email',
      subject: mail.subject || '(no subject)',
      body: mail.body,
      occurredAt: mail.sentAt,
      completedAt: mail.sentAt,
    })),
  );
}
