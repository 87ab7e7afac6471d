import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import type { Addon } from '../../entities/billing/addon';
import type { Plan } from '../../entities/billing/plan';
import type { Promotion } from '../../entities/billing/promotion';
import { subscriptionStatuses, type Subscription } from '../../entities/billing/subscription';
import type { PaymentProviderStatus } from '../../domain/billing/getPaymentProviderStatus';
import { isTrialRunning } from '../../domain/billing/subscription';
import type { PromotionState } from '../../domain/billing/promotionRules';
import type { Entitlements } from '../../lib/entitlementCache';
import { iso, isoTime } from '../http/present';
import { vrRoomsLimit, webhookDuplicate } from './views.docs';

/** Presenters of the billing routes: the only place billing entities become response bodies. */

export class TrialView {
  @JSONSchema({ description: 'A trial is running now' }) @IsBoolean() active!: boolean;
  @JSONSchema({ description: 'The organisation has had its one trial (start-trial answers 409 trial_already_used)' })
  @IsBoolean()
  used!: boolean;
  @Nullable() @IsDateString() startedAt!: string | null;
  @Nullable() @IsDateString() endsAt!: string | null;
  @JSONSchema({ description: 'Paid modules the trial unlocks' }) @IsString({ each: true }) modules!: string[];
}

export class SubscriptionView {
  @IsUUID() tenantId!: string;
  @IsString() tier!: string;
  @JSONSchema({ description: 'trialing: our free trial runs; the others mirror the payment provider' })
  @IsIn(subscriptionStatuses)
  status!: string;
  @JSONSchema({ description: 'Add-on modules held on top of the tier' }) @IsString({ each: true }) addons!: string[];
  @ValidateNested() @Type(() => TrialView) trial!: TrialView;
  @JSONSchema({ description: 'End of the paid period' }) @Nullable() @IsDateString() currentPeriodEnd!: string | null;
  @JSONSchema({ description: 'The paid subscription ends (back to free) at currentPeriodEnd' })
  @IsBoolean()
  cancelAtPeriodEnd!: boolean;
  @JSONSchema({ description: 'A payment provider customer exists (the portal is available)' })
  @IsBoolean()
  billingAccount!: boolean;
  @JSONSchema({ description: 'Billed through a payment provider subscription (change-plan updates it)' })
  @IsBoolean()
  paid!: boolean;
  @IsDateString() updatedAt!: string;

  static from(s: Subscription): SubscriptionView {
    return {
      tenantId: s.tenantId,
      tier: s.tier,
      status: s.status,
      addons: s.addons,
      trial: {
        active: isTrialRunning(s),
        used: !!s.trialStartedAt,
        startedAt: iso(s.trialStartedAt),
        endsAt: iso(s.trialEndsAt),
        modules: s.trialModules,
      },
      currentPeriodEnd: iso(s.currentPeriodEnd),
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      billingAccount: !!s.stripeCustomerId,
      paid: !!s.stripeSubscriptionId,
      updatedAt: isoTime(s.updatedAt),
    };
  }
}

/**
 * The limits of a tier as clients read them (every key is absent for an organisation without a tier). A vrRooms of 0
 * is stored for "no cap" (domain/vr/createRoom.ts): shown as null, so a trial of vr on the free tier does not read
 * as zero rooms.
 */
export class TierLimitsView {
  @JSONSchema({ description: 'Cloud storage quota in bytes (0: nothing can be stored)' })
  @IsOptional()
  @IsInt()
  cloudQuotaBytes?: number;
  @JSONSchema({ description: 'Members an organisation may have, owners included' })
  @IsOptional()
  @IsInt()
  seats?: number;
  @JSONSchema({ description: vrRoomsLimit })
  @IsOptional()
  @Nullable()
  @IsInt()
  vrRooms?: number | null;

  static from({ vrRooms, ...limits }: Record<string, number>): TierLimitsView {
    return { ...limits, ...(vrRooms === undefined ? {} : { vrRooms: vrRooms > 0 ? vrRooms : null }) };
  }
}

export class EntitlementsTrialView {
  @IsBoolean() active!: boolean;
  @Nullable() @IsDateString() endsAt!: string | null;
  @IsString({ each: true }) modules!: string[];
}

export class EntitlementsView {
  @IsUUID() tenantId!: string;
  @IsString() tier!: string;
  @IsString() status!: string;
  @JSONSchema({ description: 'Modules the organisation may use now: tier + add-ons + running trial' })
  @IsString({ each: true })
  modules!: string[];
  @JSONSchema({ description: 'Limits of the tier' })
  @ValidateNested()
  @Type(() => TierLimitsView)
  limits!: TierLimitsView;
  @ValidateNested() @Type(() => EntitlementsTrialView) trial!: EntitlementsTrialView;
  @IsString({ each: true }) addons!: string[];
  @IsBoolean() suspended!: boolean;
  @JSONSchema({
    description:
      'These entitlements change by themselves at this time (the trial ends); null: until the subscription changes',
  })
  @Nullable()
  @IsDateString()
  validUntil!: string | null;

  static from(e: Entitlements): EntitlementsView {
    return { ...e, limits: TierLimitsView.from(e.limits), trial: { ...e.trial } };
  }
}

export class TierEntitlementsView {
  @IsString() tier!: string;
  @IsString() name!: string;
  @IsString({ each: true }) modules!: string[];
  @ValidateNested() @Type(() => TierLimitsView) limits!: TierLimitsView;

  static from(p: Plan): TierEntitlementsView {
    return {
      tier: p.tier,
      name: p.name,
      modules: p.entitlements.modules,
      limits: TierLimitsView.from(p.entitlements.limits),
    };
  }
}

export class TierEntitlementsList {
  @ValidateNested({ each: true }) @Type(() => TierEntitlementsView) items!: TierEntitlementsView[];
}

export class PlanView {
  @IsString() tier!: string;
  @IsString() name!: string;
  @IsString() description!: string;
  @JSONSchema({ description: 'Monthly price in integer cents' }) @IsInt() priceCents!: number;
  @IsString() currency!: string;
  @Nullable() @IsString() stripePriceId!: string | null;
  @IsBoolean() public!: boolean;
  @IsInt() sortOrder!: number;
  @IsString({ each: true }) modules!: string[];
  @ValidateNested() @Type(() => TierLimitsView) limits!: TierLimitsView;

  static from(p: Plan): PlanView {
    return {
      tier: p.tier,
      name: p.name,
      description: p.description,
      priceCents: p.priceCents,
      currency: p.currency,
      stripePriceId: p.stripePriceId ?? null,
      public: p.public,
      sortOrder: p.sortOrder,
      modules: p.entitlements.modules,
      limits: TierLimitsView.from(p.entitlements.limits),
    };
  }
}

export class PlanList {
  @ValidateNested({ each: true }) @Type(() => PlanView) items!: PlanView[];
}

export class StripeStatusView implements PaymentProviderStatus {
  @JSONSchema({ description: 'STRIPE_SECRET_KEY is set: checkout, portal and paid plan changes work' })
  @IsBoolean()
  configured!: boolean;
  @JSONSchema({ description: 'STRIPE_WEBHOOK_SECRET is set: webhooks are accepted' })
  @IsBoolean()
  webhookSecretSet!: boolean;
  @Nullable() @IsIn(['test', 'live']) mode!: 'test' | 'live' | null;
  @JSONSchema({ description: 'Public paid tiers without a Stripe price id (cannot be bought)' })
  @IsString({ each: true })
  tiersWithoutPrice!: string[];
  @JSONSchema({ description: 'Active add-ons without a Stripe price id (cannot be bought)' })
  @IsString({ each: true })
  addonsWithoutPrice!: string[];
}

export class AddonView {
  @IsString() moduleKey!: string;
  @IsString() name!: string;
  @IsString() description!: string;
  @JSONSchema({ description: 'Monthly price in integer cents' }) @IsInt() priceCents!: number;
  @IsString() currency!: string;
  @Nullable() @IsString() stripePriceId!: string | null;
  @IsBoolean() active!: boolean;
  @IsInt() sortOrder!: number;

  static from(a: Addon): AddonView {
    return {
      moduleKey: a.moduleKey,
      name: a.name,
      description: a.description,
      priceCents: a.priceCents,
      currency: a.currency,
      stripePriceId: a.stripePriceId ?? null,
      active: a.active,
      sortOrder: a.sortOrder,
    };
  }
}

export class AddonOfferView extends AddonView {
  @JSONSchema({ description: 'My organisation holds this add-on' }) @IsBoolean() owned!: boolean;
}

export class AddonCatalogueView {
  @ValidateNested({ each: true }) @Type(() => AddonOfferView) items!: AddonOfferView[];
  @JSONSchema({ description: 'Add-on modules my organisation holds' }) @IsString({ each: true }) owned!: string[];

  static from(addons: Addon[], owned: string[]): AddonCatalogueView {
    return { items: addons.map((a) => ({ ...AddonView.from(a), owned: owned.includes(a.moduleKey) })), owned };
  }
}

export class AddonList {
  @ValidateNested({ each: true }) @Type(() => AddonView) items!: AddonView[];
}

export class PromotionView {
  @IsUUID() id!: string;
  @IsString() code!: string;
  @Nullable() @IsInt() percentOff!: number | null;
  @Nullable() @IsInt() amountOffCents!: number | null;
  @Nullable() @IsString() currency!: string | null;
  @Nullable() @IsDateString() expiresAt!: string | null;
  @Nullable() @IsInt() maxRedemptions!: number | null;
  @JSONSchema({ description: 'Completed checkouts that used the code' }) @IsInt() redemptions!: number;
  @IsBoolean() active!: boolean;
  @JSONSchema({ description: 'Empty: every tier' }) @IsString({ each: true }) appliesToTiers!: string[];
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(p: Promotion): PromotionView {
    return {
      id: p.id,
      code: p.code,
      percentOff: p.percentOff ?? null,
      amountOffCents: p.amountOffCents ?? null,
      currency: p.currency ?? null,
      expiresAt: iso(p.expiresAt),
      maxRedemptions: p.maxRedemptions ?? null,
      redemptions: p.redemptions,
      active: p.active,
      appliesToTiers: p.appliesToTiers,
      createdAt: isoTime(p.createdAt),
      updatedAt: isoTime(p.updatedAt),
    };
  }
}

export class PromotionList {
  @ValidateNested({ each: true }) @Type(() => PromotionView) items!: PromotionView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class PromoLookupView {
  @IsString() code!: string;
  @JSONSchema({ description: 'Usable now (and for the tier asked about)' }) @IsBoolean() valid!: boolean;
  @JSONSchema({ description: 'Why not: expired, exhausted or not_applicable; null when valid' })
  @Nullable()
  @IsString()
  reason!: string | null;
  @Nullable() @IsInt() percentOff!: number | null;
  @Nullable() @IsInt() amountOffCents!: number | null;
  @Nullable() @IsString() currency!: string | null;
  @Nullable() @IsDateString() expiresAt!: string | null;
  @IsString({ each: true }) appliesToTiers!: string[];

  static from(p: Promotion, state: PromotionState): PromoLookupView {
    return {
      code: p.code,
      valid: state === 'valid',
      reason: state === 'valid' ? null : state,
      percentOff: p.percentOff ?? null,
      amountOffCents: p.amountOffCents ?? null,
      currency: p.currency ?? null,
      expiresAt: iso(p.expiresAt),
      appliesToTiers: p.appliesToTiers,
    };
  }
}

export class CheckoutSessionView {
  @JSONSchema({ description: 'Stripe Checkout session id' }) @IsString() id!: string;
  @JSONSchema({ description: 'Stripe-hosted page to redirect the customer to' }) @IsString() url!: string;
}

export class EmbeddedCheckoutView {
  @IsString() id!: string;
  @JSONSchema({ description: 'For Stripe.js initEmbeddedCheckout' }) @IsString() clientSecret!: string;
}

export class PortalView {
  @JSONSchema({ description: 'Stripe billing portal page to redirect the customer to' }) @IsString() url!: string;
}

export class TrialingView {
  @IsUUID() tenantId!: string;
  @IsString() tier!: string;
  @IsString() status!: string;
  @Nullable() @IsDateString() trialStartedAt!: string | null;
  @IsDateString() trialEndsAt!: string;
  @IsString({ each: true }) trialModules!: string[];

  static from(s: Subscription): TrialingView {
    return {
      tenantId: s.tenantId,
      tier: s.tier,
      status: s.status,
      trialStartedAt: iso(s.trialStartedAt),
      trialEndsAt: isoTime(s.trialEndsAt!),
      trialModules: s.trialModules,
    };
  }
}

export class TrialingList {
  @ValidateNested({ each: true }) @Type(() => TrialingView) items!: TrialingView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class WebhookReceiptView {
  @JSONSchema({ description: 'false when the delivery was ignored (no signature)' }) @IsBoolean() received!: boolean;
  @JSONSchema({ description: webhookDuplicate }) @IsOptional() @IsBoolean() duplicate?: boolean;
}
