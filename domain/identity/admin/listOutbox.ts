import { MailMessage, type mailStatuses } from '../../../entities/platform/mail';
import { lean, withoutTenant, type Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import type { Services } from '../../services';
import { normalizeEmail } from '../createUser';

export interface ListOutboxProps extends PageProps {
  /** Recipient address. */
  to?: string;
  status?: (typeof mailStatuses)[number];
}

// A lean statement (docs/database-path.md); the outbox is platform-wide (its tenantId is informative only).
const mailsPage = lean(MailMessage, {
  where: '($1::text is null or "to" = $1) and ($2::text is null or status = $2) and ($3::uuid is null or id < $3)',
  orderBy: 'id desc',
  limitParam: '$4',
});

/** Mails written by the suite, newest first: the outbox of local set-ups (no SMTP) and the sending log. */
export async function listOutbox(services: Services, props: ListOutboxProps): Promise<Page<Lean<MailMessage>>> {
  const rows = await mailsPage.all(withoutTenant(services), props.to ? normalizeEmail(props.to) : null, props.status ?? null, props.cursor ?? null, props.limit + 1);
  return toPage(rows, props.limit);
}
