import type { TenantContext } from '../context';
import { storedRuleSet, type StoredRuleSet } from './complianceRules';
import { ruleSetRow } from './store/compliance';

/** The organisation's rule set (the French defaults until it is edited). */
export const getComplianceRules = async (ctx: TenantContext): Promise<StoredRuleSet> =>
  storedRuleSet(await ruleSetRow(ctx.em));
