import { newId } from '../../../entities/base';
import { HrSettings } from '../../../entities/hr/settings';
import type { Em } from '../../../lib/db';

/** The HR settings statements: one row per organisation, absent until first edited. */

/** The organisation's settings row, if any. */
export const settingsRow = (em: Em) => em.findOne(HrSettings, {});

/** Writes the organisation's settings (insert or update of its one row); concurrent writers: the last wins. */
export async function upsertSettings(
  em: Em,
  tenantId: string,
  values: { fractionnementWaivedByDefault: boolean },
  updatedBy: string | null,
): Promise<void> {
  const now = new Date();
  await em.execute(
    `insert into hr_settings (id, tenant_id, created_at, updated_at, updated_by, fractionnement_waived_by_default) values (?, ?, ?, ?, ?, ?)
     on conflict (tenant_id) do update set fractionnement_waived_by_default = excluded.fractionnement_waived_by_default, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    [newId(), tenantId, now, now, updatedBy, values.fractionnementWaivedByDefault],
  );
}
