import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsISO4217CurrencyCode,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { subscriptionStatuses, type SubscriptionStatus } from '../../entities/billing/subscription';
import { INT4_MAX, IsInstant, Length } from '../http/dtos';
import { moduleKeys, type ModuleKey } from '../http/guards';
import { changePlanAddons, startTrialModules } from './dtos.docs';

/** Request bodies, parameters and queries of the billing routes. Unknown fields are refused. */

const TIER = /^[a-z0-9][a-z0-9_-]{0,39}$/;
const TIER_MESSAGE = 'tier must be a tier key (lower-case letters, digits, - and _)';
const PRICE_ID = /^[A-Za-z0-9_-]{1,120}$/;
const PRICE_MESSAGE = 'stripePriceId must be a Stripe price id such as price_123';
const MAX_CENTS = 100_000_000;
/** How an ISO 4217 field is published (class-validator-jsonschema knows no schema for IsISO4217CurrencyCode). */
const CURRENCY = {
  type: 'string',
  pattern: '^[A-Za-z]{3}$',
  description: 'ISO 4217 code, e.g. EUR (any case; stored upper-cased)',
} as const;

export class TierParams {
  @Matches(TIER, { message: TIER_MESSAGE }) tier!: string;
}

export class TenantParams {
  @IsUUID() tenantId!: string;
}

export class AddonParams {
  @IsIn(moduleKeys) moduleKey!: ModuleKey;
}

export class PromoCodeParams {
  @Matches(/^[A-Za-z0-9_-]{2,64}$/, { message: 'code must be 2 to 64 letters, digits, - or _' }) code!: string;
}

export class StartTrialBody {
  @JSONSchema({ description: startTrialModules })
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(moduleKeys, { each: true })
  modules?: ModuleKey[];
}

export class TrialModulesBody {
  @JSONSchema({ description: 'Paid modules the running trial unlocks from now on (replaces the current choice)' })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(moduleKeys, { each: true })
  modules!: ModuleKey[];
}

export class ChangePlanBody {
  @Matches(TIER, { message: TIER_MESSAGE }) tier!: string;

  @JSONSchema({ description: changePlanAddons })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(moduleKeys, { each: true })
  addons?: ModuleKey[];
}

export class EditSubscriptionBody {
  @JSONSchema({ description: 'Any tier, public or not' })
  @IsOptional()
  @Matches(TIER, { message: TIER_MESSAGE })
  tier?: string;
  @IsOptional() @IsIn(subscriptionStatuses) status?: SubscriptionStatus;
  @JSONSchema({ description: 'Add-on modules granted on top of the tier (replaces the list)' })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(moduleKeys, { each: true })
  addons?: ModuleKey[];
  @JSONSchema({
    description: 'Trial end (ISO 8601); a future date starts or extends the trial, a past one ends it, null removes it',
    type: ['string', 'null'],
  })
  @IsOptional()
  @IsInstant()
  trialEndsAt?: string | null;
  @IsOptional() @IsArray() @ArrayUnique() @IsIn(moduleKeys, { each: true }) trialModules?: ModuleKey[];
}

/** Limits are stored in the plan's JSON and compared with counts: integers JavaScript holds exactly. */
export class TierLimitsBody {
  @JSONSchema({ description: 'Cloud storage quota in bytes (at most 2^53 - 1)' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  cloudQuotaBytes!: number;
  @JSONSchema({ description: 'Members an organisation may have' }) @IsInt() @Min(0) @Max(INT4_MAX) seats!: number;
  @JSONSchema({ description: 'VR rooms an organisation may have; null (or 0) for no cap', type: ['integer', 'null'] })
  @ValidateIf((limits: TierLimitsBody) => limits.vrRooms !== null)
  @IsInt()
  @Min(0)
  @Max(INT4_MAX)
  vrRooms!: number | null;
}

export class TierEntitlementsBody {
  @JSONSchema({ description: 'Modules the tier grants' })
  @IsArray()
  @ArrayUnique()
  @IsIn(moduleKeys, { each: true })
  modules!: ModuleKey[];

  @IsObject() @ValidateNested() @Type(() => TierLimitsBody) limits!: TierLimitsBody;
}

export class UpdatePlanBody {
  @IsOptional() @IsString() @Length(1, 80) name?: string;
  @IsOptional() @IsString() @Length(0, 500) description?: string;
  @JSONSchema({ description: 'Monthly price in integer cents of currency' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_CENTS)
  priceCents?: number;
  @JSONSchema(CURRENCY) @IsOptional() @IsISO4217CurrencyCode() currency?: string;
  @JSONSchema({ description: 'Stripe price billed for the tier; null unlinks it', type: ['string', 'null'] })
  @IsOptional()
  @Matches(PRICE_ID, { message: PRICE_MESSAGE })
  stripePriceId?: string | null;
  @JSONSchema({ description: 'Listed in the public catalogue and selectable by change-plan and checkout' })
  @IsOptional()
  @IsBoolean()
  public?: boolean;
  @IsOptional() @IsInt() @Min(0) @Max(10_000) sortOrder?: number;
}

export class UpdateAddonBody {
  @IsOptional() @IsString() @Length(1, 80) name?: string;
  @IsOptional() @IsString() @Length(0, 500) description?: string;
  @JSONSchema({ description: 'Monthly price in integer cents of currency' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_CENTS)
  priceCents?: number;
  @JSONSchema(CURRENCY) @IsOptional() @IsISO4217CurrencyCode() currency?: string;
  @JSONSchema({ description: 'Stripe price billed for the add-on; null unlinks it', type: ['string', 'null'] })
  @IsOptional()
  @Matches(PRICE_ID, { message: PRICE_MESSAGE })
  stripePriceId?: string | null;
  @JSONSchema({ description: 'On sale; an inactive add-on stays with the organisations that hold it' })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
  @IsOptional() @IsInt() @Min(0) @Max(10_000) sortOrder?: number;
}

export class CreateAddonBody {
  @IsIn(moduleKeys) moduleKey!: ModuleKey;
  @IsString() @Length(1, 80) name!: string;
  @IsOptional() @IsString() @Length(0, 500) description?: string;
  @JSONSchema({ description: 'Monthly price in integer cents of currency' })
  @IsInt()
  @Min(0)
  @Max(MAX_CENTS)
  priceCents!: number;
  @JSONSchema(CURRENCY) @IsOptional() @IsISO4217CurrencyCode() currency?: string;
  @JSONSchema({ description: 'Stripe price billed for the add-on', type: ['string', 'null'] })
  @IsOptional()
  @Matches(PRICE_ID, { message: PRICE_MESSAGE })
  stripePriceId?: string | null;
  @JSONSchema({ description: 'On sale (default true)' }) @IsOptional() @IsBoolean() active?: boolean;
  @IsOptional() @IsInt() @Min(0) @Max(10_000) sortOrder?: number;
}

export class PutPromotionBody {
  @JSONSchema({ description: 'Case-insensitive; stored upper-cased' })
  @Matches(/^[A-Za-z0-9_-]{2,64}$/, { message: 'code must be 2 to 64 letters, digits, - or _' })
  code!: string;
  @JSONSchema({ description: 'Percentage off (1-100); exclusive with amountOffCents', type: ['integer', 'null'] })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  percentOff?: number | null;
  @JSONSchema({
    description: 'Fixed amount off in cents of currency; exclusive with percentOff',
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_CENTS)
  amountOffCents?: number | null;
  @JSONSchema({
    ...CURRENCY,
    description: `Required with amountOffCents. ${CURRENCY.description}`,
    type: ['string', 'null'],
  })
  @IsOptional()
  @IsISO4217CurrencyCode()
  currency?: string | null;
  @JSONSchema({ type: ['string', 'null'] }) @IsOptional() @IsInstant() expiresAt?: string | null;
  @JSONSchema({ type: ['integer', 'null'], description: 'null: unlimited' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  maxRedemptions?: number | null;
  @IsOptional() @IsBoolean() active?: boolean;
  @JSONSchema({ description: 'Tiers the code applies to; empty or omitted: every tier' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ArrayUnique()
  @Matches(TIER, { each: true, message: TIER_MESSAGE })
  appliesToTiers?: string[];
}

export class PromoLookupQuery {
  @JSONSchema({ description: 'Also check that the code applies to this tier' })
  @IsOptional()
  @Matches(TIER, { message: TIER_MESSAGE })
  tier?: string;
}

export class CheckoutBody {
  @JSONSchema({ description: 'A paid public tier' }) @Matches(TIER, { message: TIER_MESSAGE }) tier!: string;
  @JSONSchema({ description: 'Add-on modules bought with the tier' })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(moduleKeys, { each: true })
  addons?: ModuleKey[];
  @JSONSchema({ description: 'Promotion code applied to the first invoice' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{2,64}$/, { message: 'promoCode must be 2 to 64 letters, digits, - or _' })
  promoCode?: string;
}
