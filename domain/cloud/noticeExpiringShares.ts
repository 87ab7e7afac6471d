import type { MailMessage } from '../../entities/platform/mail';
import { composeMail, dispatchMails } from '../platform/mail';
import type { Services } from '../services';
import { expiryNoticeWindow } from './shareRules';
import { claimExpiringShares } from './store/shares';

/** Links claimed by one pass (the sweep runs every minute; a full batch runs again at once). */
const BATCH = 200;

/**
 * Tells the creators of link shares that expire within CLOUD_SHARE_EXPIRY_NOTICE_HOURS, once per link: one
 * statement claims them in the transaction that writes their mails to the outbox (dedupe key
 * `share-expiring:<id>:<expiry>`, so retries never mail twice; a link given a new expiry is noticed again). A creator who left the organisation, or an item trashed
 * since, is not mailed (the link is claimed all the same). Returns how many were mailed.
 */
export async function noticeExpiringShares(services: Services, now = Date.now()): Promise<number> {
  const hours = services.config.CLOUD_SHARE_EXPIRY_NOTICE_HOURS;
  if (hours <= 0) return 0;
  let total = 0;
  for (;;) {
    const mails: MailMessage[] = [];
    let claimed = 0;
    await services.orm.em.fork().transactional(async (em) => {
      const rows = await claimExpiringShares(em, expiryNoticeWindow(hours, now), BATCH);
      claimed = rows.length;
      for (const r of rows) {
        if (!r.email || !r.node_name) continue;
        mails.push(
          composeMail(em, services, {
            to: r.email,
            tenantId: r.tenant_id,
            dedupeKey: `share-expiring:${r.id}:${new Date(r.expires_at).getTime()}`,
            template: 'share_expiring',
            data: {
              name: r.display_name ?? '',
              item: r.node_name,
              folder: r.node_kind === 'folder',
              expiresAt: new Date(r.expires_at).toISOString().slice(0, 16).replace('T', ' '),
              nodeId: r.node_id,
            },
          }),
        );
      }
    });
    await dispatchMails(services, mails);
    total += mails.length;
    if (claimed < BATCH) return total;
  }
}
