import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import type { Addon } from '../../entities/billing/addon';
import type { Plan } from '../../entities/billing/plan';
import { addonOfModule, planOfTier } from './store';

/** The catalogue's entries as the administrators' routes name them: 404 when there is none. */
export async function findPlan(em: Em, tier: string): Promise<Plan> {
  const plan = await planOfTier(em, tier);
  if (!plan) throw notFound('Plan');
  return plan;
}

export async function findAddon(em: Em, moduleKey: string): Promise<Addon> {
  const addon = await addonOfModule(em, moduleKey);
  if (!addon) throw notFound('Add-on');
  return addon;
}

export interface AddonProps {
  name: string;
  description?: string;
  /** Monthly price in integer cents. */
  priceCents: number;
  /** ISO 4217 code. */
  currency?: string;
  /** Stripe price billed for it; null unlinks it. */
  stripePriceId?: string | null;
  /** On sale; an inactive add-on stays with the organisations that hold it. */
  active?: boolean;
  sortOrder?: number;
}

/** Currencies are stored upper case. */
export const normalisedAddon = <T extends Partial<AddonProps>>(props: T): T =>
  props.currency ? { ...props, currency: props.currency.toUpperCase() } : props;
