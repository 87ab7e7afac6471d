import { p } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';

/** Primary keys are UUIDv7: unguessable across tenants, yet time-ordered so indexes stay compact. */
export const newId = (): string => uuidv7();

export const idColumn = () =>
  p
    .uuid()
    .primary()
    .onCreate(() => newId());
export const createdAt = () => p.datetime().onCreate(() => new Date());
export const updatedAt = () =>
  p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date());

export interface TenantFilterArgs {
  tenantId: string;
}

/**
 * The tenant filter every tenant-scoped entity carries. It is on by default and has no default argument,
 * so a query on an EntityManager without tenant context throws instead of reading every tenant.
 * Code that deliberately crosses tenants says so with `filters: { tenant: false }`.
 */
export const tenantFilter = {
  tenant: { name: 'tenant', cond: (args: TenantFilterArgs) => ({ tenantId: args.tenantId }), default: true },
};

/** Columns shared by tenant-scoped entities. */
export const tenantColumns = () => ({
  id: idColumn(),
  tenantId: p.uuid(),
  createdAt: createdAt(),
});
