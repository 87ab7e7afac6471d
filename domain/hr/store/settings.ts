import { newId } from '../../../entities/base';
import { HrSettings } from '../../../entities/hr/settings';
import type { Em } from '../../../lib/db';

/** The HR settings statements: one row per organisation, absent until first edited. */

/** The organisation's settings row, if any. */
export const settingsRow = (em: Em) => em.findOne(HrSettings, {});

/** What the settings row holds beyond its bookkeeping. */
export interface StoredSettings {
  fractionnementWaivedByDefault: boolean;
  overtimeFirstTierMinutes: number;
  overtimeFirstRate: number;
  overtimeSecondRate: number;
  replacementRest: boolean;
  annualContingentMinutes: number;
  forfaitDays: number;
}

const COLUMNS = [
  'fractionnement_waived_by_default',
  'overtime_first_tier_minutes',
  'overtime_first_rate',
  'overtime_second_rate',
  'replacement_rest',
  'annual_contingent_minutes',
  'forfait_days',
] as const;

/** Writes the organisation's settings (insert or update of its one row); concurrent writers: the last wins. */
export async function upsertSettings(
  em: Em,
  tenantId: string,
  v: StoredSettings,
  updatedBy: string | null,
): Promise<void> {
  const now = new Date();
  await em.execute(
    `insert into hr_settings (id, tenant_id, created_at, updated_at, updated_by, ${COLUMNS.join(', ')}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     on conflict (tenant_id) do update set ${COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    [
      newId(),
      tenantId,
      now,
      now,
      updatedBy,
      v.fractionnementWaivedByDefault,
      v.overtimeFirstTierMinutes,
      v.overtimeFirstRate,
      v.overtimeSecondRate,
      v.replacementRest,
      v.annualContingentMinutes,
      v.forfaitDays,
    ],
  );
}
