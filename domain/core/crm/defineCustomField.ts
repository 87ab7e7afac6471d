import { CustomField, type CustomFieldType } from '../../../entities/core/customField';
import { badRequest, conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { countCustomFields, customValuesStored, lockCustomFields, removeCustomValues } from './store/customFields';

export const MAX_CUSTOM_FIELDS = 100;

export interface DefineCustomFieldProps {
  label: string;
  type: CustomFieldType;
  options?: string[];
}

/**
 * Creates or replaces the definition of a custom field (PUT). Changing the type of a field that has values is
 * refused (409 `field_in_use`): the stored values would no longer match it. Values of options removed from a
 * select stay stored until the customer is next written, where they are refused. A new definition starts with
 * no values: those a deleted field of the same key left (its purge not run yet) are removed first.
 */
export async function defineCustomField(
  ctx: TenantContext,
  key: string,
  props: DefineCustomFieldProps,
): Promise<{ field: CustomField; created: boolean }> {
  const options =
    props.type === 'select' ? [...new Set((props.options ?? []).map((o) => o.trim()).filter(Boolean))] : [];
  if (props.type === 'select' && !options.length)
    throw badRequest('validation_failed', 'A select field needs options', [
      { field: 'options', message: 'must list at least one option for a select field' },
    ]);
  if (props.type !== 'select' && props.options?.length)
    throw badRequest('validation_failed', 'Only select fields have options', [
      { field: 'options', message: `must be absent for a ${props.type} field` },
    ]);
  return ctx.em.transactional(async (em) => {
    await lockCustomFields(em, ctx.tenantId);
    const existing = await em.findOne(CustomField, { key });
    if (existing) {
      if (existing.type !== props.type && (await customValuesStored(em, ctx.tenantId, key))) {
        throw conflict(
          'field_in_use',
          `Customers have values for ${key}: its type cannot change from ${existing.type} to ${props.type}; delete the field first`,
        );
      }
      existing.label = props.label.trim();
      existing.type = props.type;
      existing.options = options;
      return { field: existing, created: false };
    }
    if ((await countCustomFields(em)) >= MAX_CUSTOM_FIELDS)
      throw conflict('custom_field_limit_reached', `An organisation has at most ${MAX_CUSTOM_FIELDS} custom fields`);
    // Under the lock the purge takes too: values of the old definition never show under the new one.
    await removeCustomValues(em, ctx.tenantId, key);
    return {
      field: em.create(CustomField, {
        tenantId: ctx.tenantId,
        key,
        label: props.label.trim(),
        type: props.type,
        options,
      }),
      created: true,
    };
  });
}
