import type { HrComplianceRuleSet } from '../../entities/hr/compliance';
import { FRENCH_RULES, limitsOf, storedRuleSet, withChanges } from './complianceRules';

describe('compliance rule sets', () => {
  it('are the Code du travail limits by default', () => {
    expect(FRENCH_RULES).toEqual({
      maxDailyMinutes: 600,
      maxWeeklyMinutes: 2880,
      maxAverageWeeklyMinutes: 2640,
      averageWeeks: 12,
      minDailyRestMinutes: 660,
      minWeeklyRestMinutes: 2100,
      breakAfterMinutes: 360,
      minBreakMinutes: 20,
    });
    expect(storedRuleSet(null)).toEqual({ rules: FRENCH_RULES, customised: false, updatedAt: null, updatedBy: null });
  });

  it('edit by field: a value replaces, null turns the rule off, an absent field is kept', () => {
    const edited = withChanges(FRENCH_RULES, {
      maxDailyMinutes: 480,
      breakAfterMinutes: null,
      minBreakMinutes: undefined,
    });
    expect(edited).toEqual({ ...FRENCH_RULES, maxDailyMinutes: 480, breakAfterMinutes: null });
    expect(withChanges(edited, {})).toEqual(edited);
    // The defaults themselves never change.
    expect(FRENCH_RULES.maxDailyMinutes).toBe(600);
    expect(FRENCH_RULES.breakAfterMinutes).toBe(360);
  });

  it('read a stored row as customised, a missing limit as off', () => {
    const updatedAt = new Date('2025-03-01T10:00:00Z');
    const row = {
      ...FRENCH_RULES,
      maxWeeklyMinutes: undefined,
      minWeeklyRestMinutes: null,
      updatedAt,
      updatedBy: undefined,
    } as unknown as HrComplianceRuleSet;
    expect(limitsOf(row)).toEqual({ ...FRENCH_RULES, maxWeeklyMinutes: null, minWeeklyRestMinutes: null });
    expect(storedRuleSet(row)).toEqual({
      rules: { ...FRENCH_RULES, maxWeeklyMinutes: null, minWeeklyRestMinutes: null },
      customised: true,
      updatedAt,
      updatedBy: null,
    });
  });
});
