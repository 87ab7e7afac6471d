import { createHmac } from 'node:crypto';
import { MailMessage } from '../../entities/platform/mail';
import type { KnowledgeArticle } from '../../entities/knowledge/article';
import type { KnowledgeSpace } from '../../entities/knowledge/space';
import type { KnowledgeSubscriber } from '../../entities/knowledge/subscriber';
import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { sameBytes } from '../../lib/tokens';

/**
 * Blog subscriber mails and their signed links. A link token is `<subscriberId>.<purpose>.<HMAC>` signed with
 * a secret derived from JWT_SECRET for this purpose only: confirming needs the confirmation mail, and every
 * mail carries an unsubscribe link that works without signing in and cannot be forged for another address.
 */
export type LinkPurpose = 'confirm' | 'unsubscribe';

const sign = (services: Services, subscriberId: string, purpose: LinkPurpose) =>
  createHmac('sha256', services.deriveSecret('knowledge-subscribers'))
    .update(`${subscriberId}.${purpose}`)
    .digest('base64url');

export const linkToken = (services: Services, subscriberId: string, purpose: LinkPurpose) =>
  `${subscriberId}.${purpose}.${sign(services, subscriberId, purpose)}`;

/** The subscriber id of a valid token of this purpose, or null. */
export function verifyLinkToken(services: Services, token: string, purpose: LinkPurpose): string | null {
  const [id, tokenPurpose, mac] = token.split('.');
  if (!id || tokenPurpose !== purpose || !mac || !/^[0-9a-f-]{36}$/.test(id)) return null;
  const expected = Buffer.from(sign(services, id, purpose));
  const given = Buffer.from(mac);
  return sameBytes(expected, given) ? id : null;
}

const base = (services: Services) => (services.config.APP_URL || services.config.PUBLIC_URL).replace(/\/$/, '');
const link = (services: Services, purpose: LinkPurpose, subscriberId: string) =>
  `${base(services)}/api/knowledge/public/subscribers/${purpose}?token=${encodeURIComponent(linkToken(services, subscriberId, purpose))}`;

/** The double opt-in mail, written to the outbox in the caller's unit of work (dispatch it after the commit). */
export function composeConfirmation(
  em: Em,
  services: Services,
  space: KnowledgeSpace,
  subscriber: KnowledgeSubscriber,
): MailMessage {
  return em.create(MailMessage, {
    tenantId: space.tenantId,
    to: subscriber.email,
    template: 'knowledge_subscribe_confirm',
    subject: `Confirm your subscription to ${space.name}`,
    text: `Someone (hopefully you) asked to receive the new articles of ${space.name} at this address.\n\nConfirm your subscription:\n${link(services, 'confirm', subscriber.id)}\n\nIf it was not you, ignore this mail: nothing will be sent.\n\nUnsubscribe: ${link(services, 'unsubscribe', subscriber.id)}`,
    dedupeKey: null,
  });
}

/** The mail of a published article to one confirmed subscriber, unique per article and subscriber (dedupe key). */
export function composeArticleMail(
  em: Em,
  services: Services,
  space: KnowledgeSpace,
  article: KnowledgeArticle,
  subscriber: KnowledgeSubscriber,
): MailMessage {
  return em.create(MailMessage, {
    tenantId: space.tenantId,
    to: subscriber.email,
    template: 'knowledge_article',
    subject: `${space.name}: ${article.title}`.slice(0, 200),
    text: `${article.title}\n\n${article.excerpt}\n\nRead it: ${base(services)}/api/knowledge/public/spaces/${space.slug}/articles/${article.slug}\n\nUnsubscribe: ${link(services, 'unsubscribe', subscriber.id)}`,
    dedupeKey: articleMailKey(article.id, subscriber.id),
  });
}

export const articleMailKey = (articleId: string, subscriberId: string) => `kb:${articleId}:${subscriberId}`;
