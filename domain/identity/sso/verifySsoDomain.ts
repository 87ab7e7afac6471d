import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SsoDomain } from '../../../entities/identity/sso';
import { AppError, conflict, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { ssoDomainById } from '../store/sso';
import { lookupTxt } from './lookupTxt';
import { holdsProof, proofRecordName, proofRecordValue } from './ssoRules';

/**
 * Verifies a claimed domain by its DNS TXT record (the caller holds org.manage). 422 `sso_domain_unproven` while
 * the record is not published (or DNS cannot answer now); 409 `sso_domain_taken` when another organisation verified
 * it first (the database holds one verified claim per domain). Verified already: answered as is. Audited
 * `sso.domain_verified`.
 */
export async function verifySsoDomain(
  ctx: TenantContext,
  props: { domainId: string; ip?: string | null },
): Promise<SsoDomain> {
  const claim = await ssoDomainById(ctx.em, props.domainId);
  if (!claim) throw notFound('Domain');
  if (claim.verifiedAt) return claim;
  const name = proofRecordName(claim.domain);
  let records: string[][];
  try {
    records = await lookupTxt(ctx.services.config, name);
  } catch (err) {
    throw unproven(`The DNS lookup of ${name} failed (${(err as { code?: string }).code ?? 'error'}); try again`);
  }
  if (!holdsProof(records, claim.token))
    throw unproven(`No TXT record ${name} with the value ${proofRecordValue(claim.token)} was found`);
  claim.verifiedAt = new Date();
  audit(ctx.em, {
    action: 'sso.domain_verified',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'sso_domain',
    targetId: claim.id,
    ip: props.ip,
    data: { domain: claim.domain },
  });
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('sso_domain_taken', `${claim.domain} is verified by another organisation`);
    throw err;
  }
  return claim;
}

const unproven = (detail: string) => new AppError(422, 'sso_domain_unproven', detail);
