import type { TenantContext } from '../../../context';
import { readAccountingSettings, type AccountingSettingsValues } from './accountingSettings';

/** The organisation's accounts, journals, fiscal year and reminder plan (the defaults until it saves its own). */
export const getAccountingSettings = (ctx: TenantContext): Promise<AccountingSettingsValues> =>
  readAccountingSettings(ctx.em, ctx.tenantId);
