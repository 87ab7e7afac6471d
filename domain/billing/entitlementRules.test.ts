import { resolveEntitlements, type EntitlementSources } from './entitlementRules';

const now = new Date('2026-03-01T12:00:00Z');
const plan = { entitlements: { modules: ['crm', 'cloud'], limits: { seats: 5 } } };
const sub = (s: Partial<NonNullable<EntitlementSources['sub']>> = {}): NonNullable<EntitlementSources['sub']> => ({
  tier: 'starter',
  status: 'active',
  addons: [],
  trialEndsAt: null,
  trialModules: [],
  ...s,
});

describe('resolveEntitlements', () => {
  it('grants the tier, its limits and the add-ons, sorted and once each', () => {
    const e = resolveEntitlements('t1', { org: {}, sub: sub({ addons: ['vr', 'crm'] }), plan }, now);
    expect(e).toEqual({
      tenantId: 't1',
      tier: 'starter',
      status: 'active',
      modules: ['cloud', 'crm', 'vr'],
      limits: { seats: 5 },
      trial: { active: false, endsAt: null, modules: [] },
      addons: ['vr', 'crm'],
      suspended: false,
      validUntil: null,
    });
  });

  it('adds a running trial until its end, to the millisecond', () => {
    const endsAt = new Date(now.getTime() + 1);
    const e = resolveEntitlements(
      't1',
      { org: {}, sub: sub({ status: 'trialing', trialEndsAt: endsAt, trialModules: ['hr'] }), plan },
      now,
    );
    expect(e.modules).toEqual(['cloud', 'crm', 'hr']);
    expect(e.trial).toEqual({ active: true, endsAt: endsAt.toISOString(), modules: ['hr'] });
    expect(e.validUntil).toBe(endsAt.toISOString());
  });

  it('ignores a trial that ends now or has ended', () => {
    const e = resolveEntitlements('t1', { org: {}, sub: sub({ trialEndsAt: now, trialModules: ['hr'] }), plan }, now);
    expect(e.modules).toEqual(['cloud', 'crm']);
    expect(e.trial).toEqual({ active: false, endsAt: now.toISOString(), modules: [] });
    expect(e.validUntil).toBeNull();
  });

  it('grants no module to a suspended or unknown organisation, or without a plan', () => {
    expect(resolveEntitlements('t1', { org: { suspendedAt: now }, sub: sub(), plan }, now)).toMatchObject({
      modules: [],
      suspended: true,
      limits: { seats: 5 },
    });
    expect(resolveEntitlements('t1', { org: null, sub: sub(), plan }, now)).toMatchObject({
      modules: [],
      suspended: true,
    });
    expect(resolveEntitlements('t1', { org: {}, sub: sub(), plan: null }, now)).toMatchObject({
      modules: [],
      limits: {},
      suspended: false,
    });
  });

  it('answers "none" without a subscription', () => {
    expect(resolveEntitlements('t1', { org: {}, sub: null, plan: null }, now)).toEqual({
      tenantId: 't1',
      tier: 'none',
      status: 'none',
      modules: [],
      limits: {},
      trial: { active: false, endsAt: null, modules: [] },
      addons: [],
      suspended: false,
      validUntil: null,
    });
  });
});
