import type { TenantContext } from '../context';
import { settingsRow } from './store/settings';
import { DEFAULT_CONTINGENT_MINUTES, DEFAULT_OVERTIME, type OvertimeRates } from './workedTime';

/** The organisation's HR settings, defaults filled in (the row exists only once edited). */
export interface HrSettingsValues {
  fractionnementWaivedByDefault: boolean;
  /** The agreement's overtime (the legal week of 35 h stays the threshold). */
  overtimeFirstTierMinutes: number;
  overtimeFirstRate: number;
  overtimeSecondRate: number;
  replacementRest: boolean;
  annualContingentMinutes: number;
  forfaitDays: number;
  updatedAt: Date | null;
  updatedBy: string | null;
}

/** The yearly forfait of the law (L3121-64): at most 218 days. */
export const DEFAULT_FORFAIT_DAYS = 218;

export const DEFAULT_HR_SETTINGS: HrSettingsValues = {
  fractionnementWaivedByDefault: false,
  overtimeFirstTierMinutes: DEFAULT_OVERTIME.firstTierMinutes,
  overtimeFirstRate: DEFAULT_OVERTIME.firstRate,
  overtimeSecondRate: DEFAULT_OVERTIME.secondRate,
  replacementRest: false,
  annualContingentMinutes: DEFAULT_CONTINGENT_MINUTES,
  forfaitDays: DEFAULT_FORFAIT_DAYS,
  updatedAt: null,
  updatedBy: null,
};

export async function hrSettingsOf(ctx: Pick<TenantContext, 'em'>): Promise<HrSettingsValues> {
  const row = await settingsRow(ctx.em);
  if (!row) return DEFAULT_HR_SETTINGS;
  return {
    fractionnementWaivedByDefault: row.fractionnementWaivedByDefault,
    overtimeFirstTierMinutes: row.overtimeFirstTierMinutes,
    overtimeFirstRate: row.overtimeFirstRate,
    overtimeSecondRate: row.overtimeSecondRate,
    replacementRest: row.replacementRest,
    annualContingentMinutes: row.annualContingentMinutes,
    forfaitDays: row.forfaitDays,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy ?? null,
  };
}

/** The overtime rates the settings give (weeks and payroll months count with them). */
export const overtimeRatesOf = (s: HrSettingsValues): OvertimeRates => ({
  weeklyMinutes: DEFAULT_OVERTIME.weeklyMinutes,
  firstTierMinutes: s.overtimeFirstTierMinutes,
  firstRate: s.overtimeFirstRate,
  secondRate: s.overtimeSecondRate,
});
