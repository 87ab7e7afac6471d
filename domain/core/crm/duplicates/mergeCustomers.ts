import { isUUID } from 'class-validator';
import { Activity } from '../../../../entities/core/activity';
import { Customer } from '../../../../entities/core/customer';
import { badRequest, conflict, notFound } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { audit } from '../../../platform/audit';
import { emitEvent } from '../../../webhooks/emitEvent';
import { customerData } from '../../../webhooks/payloads';
import { primaryOf, searchTextOf } from '../contactDetails';
import { requestHealthRecompute } from '../requestHealthRecompute';
import { lockForMerge, markMerged, moveReferences } from '../store/duplicates';
import { customerMergedError } from './mergedCustomer';
import { mergeFields, type MergeableCustomer } from './mergeFields';

export interface MergeProps {
  /** The customers merged into the survivor (1 to 20). */
  from: string[];
  /** Which customer each chosen field is taken from (domain/core/crm/duplicates/mergeFields.ts). */
  fields?: Record<string, string>;
  /** Compute everything, change nothing. */
  dryRun?: boolean;
}

export interface MergeResult {
  customer: Customer;
  merged: string[];
  moved: { activities: number; deals: number; relations: number; invoices: number; appointments: number };
  dryRun: boolean;
}

/** Thrown inside the transaction of a dry run to roll it back with its result. */
class DryRun extends Error {
  constructor(readonly result: MergeResult) {
    super('dry run');
  }
}

/**
 * Merges customers into a survivor in one transaction: the rows of all of them are locked in id order and must be
 * live customers of the organisation (404 unknown; 409 `customer_merged` when one was merged meanwhile, so of two
 * concurrent merges of the same records one wins and the other is refused); activities, deals, relations, draft
 * invoices, appointments and supplier identifiers move to the survivor (moveReferences), its fields are combined
 * (mergeFields), the others are soft-deleted pointing at it (`mergedInto`), an audit entry and a timeline note
 * record it. A dry run does all of it and rolls back, answering what would be.
 */
export async function mergeCustomers(ctx: TenantContext, survivorId: string, props: MergeProps): Promise<MergeResult> {
  if (!isUUID(survivorId)) throw notFound('Customer');
  const from = [...new Set(props.from.map((id) => id.toLowerCase()))];
  if (from.includes(survivorId)) throw badRequest('merge_into_itself', 'The survivor cannot be merged into itself');
  if (from.some((id) => !isUUID(id))) throw notFound('Customer');
  try {
    return await ctx.em.transactional(async (em) => {
      const locked = await lockForMerge(em, ctx.tenantId, [survivorId, ...from]);
      if (!locked.some((r) => r.id === survivorId))
        throw (await customerMergedError(ctx, survivorId)) ?? notFound('Customer');
      if (locked.length < from.length + 1) throw notFound('Customer');
      const gone = locked.find((r) => r.merged_into !== null);
      if (gone) throw conflict('customer_merged', `Customer ${gone.id} was merged into ${gone.merged_into} already`);

      const customers = await em.find(Customer, { id: { $in: [survivorId, ...from] } }, { refresh: true });
      const survivor = customers.find((c) => c.id === survivorId)!;
      const sources = from.map((id) => customers.find((c) => c.id === id)!);
      const values = mergeFields(survivor as MergeableCustomer, sources as MergeableCustomer[], props.fields ?? {});

      const moved = { activities: 0, deals: 0, relations: 0, invoices: 0, appointments: 0 };
      for (const source of sources) {
        const m = await moveReferences(em, ctx.tenantId, source.id, survivor.id);
        for (const k of Object.keys(moved) as (keyof typeof moved)[]) moved[k] += m[k];
      }
      await markMerged(em, ctx.tenantId, from, survivor.id);
      // The sources' rows changed in SQL: the unit of work must not write its copies back.
      for (const source of sources) em.getUnitOfWork().unsetIdentity(source);

      Object.assign(survivor, values, {
        roles: values.roles as Customer['roles'],
        primaryEmail: primaryOf(values.emails),
        searchText: searchTextOf(values.name, values.emails, values.phones),
        updatedAt: new Date(),
      });
      em.create(Activity, {
        tenantId: ctx.tenantId,
        customerId: survivor.id,
        type: 'note',
        subject: `Merged ${sources.length} customer${sources.length > 1 ? 's' : ''} into this one`.slice(0, 200),
        body: sources.map((s) => `${s.name} (${s.id})`).join('\n'),
        occurredAt: new Date(),
        completedAt: new Date(),
        createdBy: ctx.userId,
      });
      audit(em, {
        action: 'crm.customers.merged',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'customer',
        targetId: survivor.id,
        data: { merged: from, fields: props.fields ?? {}, moved },
      });
      emitEvent(em, ctx.tenantId, 'customer.updated', customerData(survivor));
      await em.flush();
      const result: MergeResult = { customer: survivor, merged: from, moved, dryRun: !!props.dryRun };
      if (props.dryRun) throw new DryRun(result);
      return result;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.result;
    throw err;
  }
}

/** After a merge committed: the survivor's health score counts what it received. */
export const afterMerge = (ctx: TenantContext, result: MergeResult): Promise<void> =>
  result.dryRun ? Promise.resolve() : requestHealthRecompute(ctx.services, ctx.tenantId, [result.customer.id]);
