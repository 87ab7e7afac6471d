import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn } from '../base';

export const mailStatuses = ['queued', 'sent', 'kept', 'failed', 'capped'] as const;

/**
 * Every e-mail the suite sends, written before it is queued (the mails' own outbox: one `queued` whose job never
 * reached Redis is enqueued by the relay). With SMTP_URL unset a mail ends `kept` here (the outbox local users
 * and tests read); otherwise `sent` once the SMTP server accepted it. `capped`: not sent, its recipient had had as
 * many mails anyone can cause as MAIL_RECIPIENT_CAP_PER_HOUR allows (domain/identity/capRecipient.ts).
 */
export const MailMessage = defineEntity({
  name: 'MailMessage',
  tableName: 'mail_messages',
  indexes: [
    { properties: ['to', 'createdAt'] },
    { properties: ['createdAt'] },
    // The relay's look-up of mails still waiting for their job (domain/identity/relayQueuedMails.ts).
    {
      name: 'mail_messages_queued_index',
      expression: `create index "mail_messages_queued_index" on "mail_messages" ("created_at") where "status" = 'queued'`,
    },
  ],
  properties: {
    id: idColumn(),
    tenantId: p.uuid().nullable(),
    to: p.string().length(254),
    template: p.string().length(40),
    subject: p.string().length(200),
    text: p.text(),
    /** Unique per logical mail (e.g. broadcast + recipient) so a retried fan-out never mails twice. */
    dedupeKey: p.string().length(120).nullable().unique(),
    status: p.enum([...mailStatuses]).default('queued'),
    error: p.string().length(500).nullable(),
    createdAt: createdAt(),
    sentAt: p.datetime().nullable(),
  },
});
export type MailMessage = InferEntity<typeof MailMessage>;

/** A platform-wide announcement mailed to every active user. */
export const Broadcast = defineEntity({
  name: 'Broadcast',
  tableName: 'broadcasts',
  properties: {
    id: idColumn(),
    subject: p.string().length(200),
    text: p.text(),
    createdById: p.uuid(),
    recipients: p.integer().default(0),
    createdAt: createdAt(),
    completedAt: p.datetime().nullable(),
  },
});
export type Broadcast = InferEntity<typeof Broadcast>;
