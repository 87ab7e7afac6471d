import type { Invoice } from '../../../entities/core/invoice';
import { AppError } from '../../../lib/errors';
import { toEn16931 } from './en16931Document';
import { frenchRuleViolations } from './frenchRules';

/**
 * At issue, in the issuing transaction (so a refusal takes no number): a document with French CTC terms (in the
 * reform's scope, see frenchCtc.ts) must pass the French rules the approved platforms apply (frenchRules.ts), or
 * it is refused with 409 `invoice_french_rules_failed`, one entry per broken rule in `errors` (`field` the rule id,
 * `message` what was found). Documents outside the scope are not held to them.
 */
export function checkFrenchRules(document: Invoice, credited?: Pick<Invoice, 'number' | 'issueDate'>): void {
  if (!document.ctc) return;
  const violations = frenchRuleViolations(toEn16931(document, credited));
  if (!violations.length) return;
  throw new AppError(
    409,
    'invoice_french_rules_failed',
    `The document breaks the French e-invoicing rule(s) ${[...new Set(violations.map((r) => r.rule))].join(', ')}`,
    violations.map((r) => ({ field: r.rule, message: r.detail })),
  );
}
