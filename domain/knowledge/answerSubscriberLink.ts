import type { KnowledgeSubscriber } from '../../entities/knowledge/subscriber';
import { notFound } from '../../lib/errors';
import type { Services } from '../services';
import { subscriberOfAnyTenant } from './store/subscribers';
import { verifyLinkToken, type LinkPurpose } from './subscriberMail';
import { answerLink } from './subscriptions';

/** Confirms (token of the confirmation mail) or unsubscribes (token of any mail) a subscriber; a bad token is a 404. */
export async function answerSubscriberLink(
  services: Services,
  token: string,
  purpose: LinkPurpose,
): Promise<KnowledgeSubscriber> {
  const id = verifyLinkToken(services, token, purpose);
  if (!id) throw notFound('Subscription');
  const em = services.orm.em.fork();
  const subscriber = await subscriberOfAnyTenant(em, id);
  if (!subscriber) throw notFound('Subscription');
  answerLink(subscriber, purpose, new Date());
  await em.flush();
  return subscriber;
}
