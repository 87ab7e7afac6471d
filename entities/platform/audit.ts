import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn } from '../base';

/** Append-only record of a security event or an administrative action. */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entries',
  indexes: [
    { properties: ['createdAt'] },
    { properties: ['tenantId', 'createdAt'] },
    { properties: ['actorId', 'createdAt'] },
    { properties: ['action', 'createdAt'] },
  ],
  properties: {
    id: idColumn(),
    tenantId: p.uuid().nullable(),
    actorId: p.uuid().nullable(),
    action: p.string().length(80),
    targetType: p.string().length(40).nullable(),
    targetId: p.string().length(80).nullable(),
    ip: p.string().length(64).nullable(),
    data: p.json<Record<string, unknown>>().default('{}'),
    createdAt: createdAt(),
  },
});
export type AuditEntry = InferEntity<typeof AuditEntry>;
