import type { VatRegime } from '../../../../entities/core/ereport';
import type { TenantContext } from '../../../context';
import { DEFAULT_VAT_REGIME } from './buildEReports';
import { regimeRow, saveRegime } from './store';

export interface EReportingSettingsValues {
  vatRegime: VatRegime;
  /** Whether the organisation chose it (false: the default applies). */
  chosen: boolean;
}

/** The organisation's VAT regime (réel normal mensuel until it saves one). */
export async function getEReportingSettings(ctx: TenantContext): Promise<EReportingSettingsValues> {
  const row = await regimeRow(ctx.em);
  return { vatRegime: row?.vatRegime ?? DEFAULT_VAT_REGIME, chosen: !!row };
}

/**
 * Saves the regime. Reported periods keep theirs; the periods after the last reported one are cut by the new
 * regime (the first one starting the day after the last reported period, so none overlaps).
 */
export async function updateEReportingSettings(
  ctx: TenantContext,
  props: { vatRegime: VatRegime },
): Promise<EReportingSettingsValues> {
  await saveRegime(ctx.em, ctx.tenantId, props.vatRegime);
  return { vatRegime: props.vatRegime, chosen: true };
}
