import type { Promotion } from '../../entities/billing/promotion';
import { AppError } from '../../lib/errors';
import { checkDiscount, normaliseCode, promotionState } from './promotionRules';

const now = new Date('2026-03-01T12:00:00Z');
const promo = (p: Partial<Promotion> = {}) =>
  ({
    active: true,
    expiresAt: null,
    maxRedemptions: null,
    redemptions: 0,
    appliesToTiers: [],
    ...p,
  }) as unknown as Promotion;

describe('normaliseCode', () => {
  it('trims and upper-cases', () => expect(normaliseCode('  spring-25 ')).toBe('SPRING-25'));
});

describe('promotionState', () => {
  it('is valid by default, for any tier', () => {
    expect(promotionState(promo(), undefined, now)).toBe('valid');
    expect(promotionState(promo(), 'pro', now)).toBe('valid');
  });

  it('tells why a code cannot be used, inactive first', () => {
    expect(promotionState(promo({ active: false, expiresAt: now }), 'pro', now)).toBe('inactive');
    expect(promotionState(promo({ expiresAt: now }), 'pro', now)).toBe('expired');
    expect(promotionState(promo({ expiresAt: new Date(now.getTime() + 1) }), 'pro', now)).toBe('valid');
    expect(promotionState(promo({ maxRedemptions: 2, redemptions: 2 }), 'pro', now)).toBe('exhausted');
    expect(promotionState(promo({ maxRedemptions: 2, redemptions: 1 }), 'pro', now)).toBe('valid');
    expect(promotionState(promo({ maxRedemptions: 0 }), 'pro', now)).toBe('exhausted');
  });

  it('limits to its tiers only when a tier is asked about', () => {
    const p = promo({ appliesToTiers: ['starter'] });
    expect(promotionState(p, 'pro', now)).toBe('not_applicable');
    expect(promotionState(p, 'starter', now)).toBe('valid');
    expect(promotionState(p, undefined, now)).toBe('valid');
  });
});

describe('checkDiscount', () => {
  const fieldsOf = (props: Parameters<typeof checkDiscount>[0]) => {
    try {
      checkDiscount(props);
      return null;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { status: err.status, fields: (err.errors ?? []).map((e) => e.field) };
    }
  };

  it('accepts a percentage, or an amount with its currency', () => {
    expect(fieldsOf({ percentOff: 20 })).toBeNull();
    expect(fieldsOf({ amountOffCents: 500, currency: 'EUR' })).toBeNull();
  });

  it('wants exactly one kind of discount', () => {
    expect(fieldsOf({})).toEqual({ status: 400, fields: ['percentOff', 'amountOffCents'] });
    expect(fieldsOf({ percentOff: 20, amountOffCents: 500, currency: 'EUR' })).toEqual({
      status: 400,
      fields: ['percentOff', 'amountOffCents'],
    });
    expect(fieldsOf({ percentOff: null, amountOffCents: null })).toEqual({
      status: 400,
      fields: ['percentOff', 'amountOffCents'],
    });
  });

  it('wants the currency with, and only with, an amount', () => {
    expect(fieldsOf({ amountOffCents: 500 })).toEqual({ status: 400, fields: ['currency'] });
    expect(fieldsOf({ percentOff: 20, currency: 'EUR' })).toEqual({ status: 400, fields: ['currency'] });
  });
});
