import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { FRENCH_RULES, limitsOf, withChanges, type RuleSet, type StoredRuleSet } from './complianceRules';
import { getComplianceRules } from './getComplianceRules';
import { lockRuleSet } from './store/compliance';

/** Edits the rule set: given fields replace, null turns a rule off, absent ones are kept. Applies to later scans. */
export async function updateComplianceRules(ctx: TenantContext, changes: Partial<RuleSet>): Promise<StoredRuleSet> {
  await ctx.em.transactional(async (em) => {
    // The first edit makes the row from the defaults; concurrent edits then queue on its lock.
    const row = await lockRuleSet(em, ctx.tenantId, FRENCH_RULES);
    const before = limitsOf(row);
    Object.assign(row, withChanges(before, changes), { updatedBy: ctx.userId });
    audit(em, {
      action: 'hr.compliance_rules.updated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_compliance_rule_set',
      targetId: row.id,
      data: { before, after: limitsOf(row) },
    });
  });
  return getComplianceRules(ctx);
}
