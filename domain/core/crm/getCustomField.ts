import { CustomField } from '../../../entities/core/customField';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';

export async function getCustomField(ctx: TenantContext, key: string): Promise<CustomField> {
  const field = await ctx.em.findOne(CustomField, { key });
  if (!field) throw notFound('Custom field');
  return field;
}
