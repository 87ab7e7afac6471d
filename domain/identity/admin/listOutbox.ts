import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { MailMessage, type mailStatuses } from '../../../entities/identity/mail';
import { normalizeEmail } from '../createUser';
import { cursorWhere, toPage, type Page, type PageProps } from '../../../lib/pagination';

export interface ListOutboxProps extends PageProps {
  /** Recipient address. */
  to?: string;
  status?: (typeof mailStatuses)[number];
}

/** Mails written by the suite, newest first: the outbox of local set-ups (no SMTP) and the sending log. */
export async function listOutbox(em: Em, props: ListOutboxProps): Promise<Page<MailMessage>> {
  const where: FilterQuery<MailMessage> = { ...cursorWhere(props.cursor, 'desc') };
  if (props.to) where.to = normalizeEmail(props.to);
  if (props.status) where.status = props.status;
  return toPage(await em.find(MailMessage, where, { orderBy: { id: 'desc' }, limit: props.limit + 1 }), props.limit);
}
