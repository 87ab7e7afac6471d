import type { MailMessage, mailStatuses } from '../../../entities/platform/mail';
import { withoutTenant, type Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { Services } from '../../services';
import { normalizeEmail } from '../createUser';
import { outboxPage } from '../store/admin';

export interface ListOutboxProps extends PageProps {
  /** Recipient address. */
  to?: string;
  status?: (typeof mailStatuses)[number];
}

/** Mails written by the suite, newest first: the outbox of local set-ups (no SMTP) and the sending log. */
export async function listOutbox(services: Services, props: ListOutboxProps): Promise<Page<Lean<MailMessage>>> {
  const rows = await outboxPage.all(
    withoutTenant(services),
    props.to ? normalizeEmail(props.to) : null,
    props.status ?? null,
    props.cursor ?? null,
    props.limit + 1,
  );
  return toPage(rows, props.limit);
}
