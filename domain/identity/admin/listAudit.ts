import type { FilterQuery } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { AuditEntry } from '../../../entities/identity/audit';
import { cursorWhere, toPage, type Page, type PageProps } from '../../../lib/pagination';

export interface ListAuditProps extends PageProps {
  /** Exact action, e.g. auth.login_failed. */
  action?: string;
  actorId?: string;
  tenantId?: string;
  /** Entries at or after this time. */
  since?: Date;
  /** Entries before this time. */
  until?: Date;
}

/** The audit log, newest first, filtered. */
export async function listAudit(em: Em, props: ListAuditProps): Promise<Page<AuditEntry>> {
  const where: FilterQuery<AuditEntry> = { ...cursorWhere(props.cursor, 'desc') };
  if (props.action) where.action = props.action;
  if (props.actorId) where.actorId = props.actorId;
  if (props.tenantId) where.tenantId = props.tenantId;
  if (props.since || props.until) where.createdAt = { ...(props.since ? { $gte: props.since } : {}), ...(props.until ? { $lt: props.until } : {}) };
  return toPage(await em.find(AuditEntry, where, { orderBy: { id: 'desc' }, limit: props.limit + 1 }), props.limit);
}
