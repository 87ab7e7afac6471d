import type { TenantContext } from '../context';
import { settingsRow } from './store/settings';

/** The organisation's HR settings, defaults filled in (the row exists only once edited). */
export interface HrSettingsValues {
  fractionnementWaivedByDefault: boolean;
  updatedAt: Date | null;
  updatedBy: string | null;
}

export const DEFAULT_HR_SETTINGS: HrSettingsValues = {
  fractionnementWaivedByDefault: false,
  updatedAt: null,
  updatedBy: null,
};

export async function hrSettingsOf(ctx: TenantContext): Promise<HrSettingsValues> {
  const row = await settingsRow(ctx.em);
  if (!row) return DEFAULT_HR_SETTINGS;
  return {
    fractionnementWaivedByDefault: row.fractionnementWaivedByDefault,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy ?? null,
  };
}
