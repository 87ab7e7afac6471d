import type { Subscription, SubscriptionStatus } from '../../entities/billing/subscription';
import { audit } from '../platform/audit';
import type { Services } from '../services';
import { lockSubscription, planForField } from './subscription';

export interface EditSubscriptionProps {
  /** Organisation whose subscription is edited. */
  tenantId: string;
  /** Platform administrator making the change. */
  actorId: string;
  /** Any tier of the catalogue, public or not (e.g. enterprise). */
  tier?: string;
  status?: SubscriptionStatus;
  /** Add-on modules granted on top of the tier (replaces the list). */
  addons?: string[];
  /** Starts, extends, shortens (past date) or removes (null) the trial. */
  trialEndsAt?: Date | null;
  /** Modules the trial unlocks (replaces the list). */
  trialModules?: string[];
}

/**
 * A platform administrator's edit of any organisation's subscription (support, enterprise deals). Fields left
 * out are kept. Setting a trial end marks the trial as used and, unless a status is given, moves the status
 * between `active` and `trialing` to match. For an organisation billed through Stripe, the next payment
 * provider event wins for tier, add-ons and status.
 */
export async function editSubscription(services: Services, props: EditSubscriptionProps): Promise<Subscription> {
  const { tenantId, actorId, ...changes } = props;
  const sub = await services.orm.em.fork().transactional(async (tx) => {
    const sub = await lockSubscription(tx, tenantId);
    const before = {
      tier: sub.tier,
      status: sub.status,
      addons: sub.addons,
      trialEndsAt: sub.trialEndsAt?.toISOString() ?? null,
      trialModules: sub.trialModules,
    };
    if (props.tier !== undefined) sub.tier = (await planForField(tx, props.tier, 'tier')).tier;
    if (props.addons !== undefined) sub.addons = [...new Set(props.addons)].sort();
    if (props.trialModules !== undefined) sub.trialModules = [...new Set(props.trialModules)].sort();
    if (props.trialEndsAt !== undefined) {
      const now = new Date();
      sub.trialEndsAt = props.trialEndsAt;
      if (props.trialEndsAt) sub.trialStartedAt ??= now;
      const running = !!props.trialEndsAt && props.trialEndsAt > now;
      if (running && sub.status === 'active') sub.status = 'trialing';
      if (!running && sub.status === 'trialing') sub.status = 'active';
    }
    if (props.status !== undefined) sub.status = props.status;
    audit(tx, {
      action: 'billing.subscription_edited',
      actorId,
      tenantId,
      targetType: 'subscription',
      targetId: sub.id,
      data: { before, changes },
    });
    return sub;
  });
  await services.entitlements.invalidate(tenantId);
  return sub;
}
