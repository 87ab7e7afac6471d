import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { defineCustomField } from '../../../domain/core/crm/defineCustomField';
import { deleteCustomField } from '../../../domain/core/crm/deleteCustomField';
import { getCustomField } from '../../../domain/core/crm/getCustomField';
import { listCustomFields } from '../../../domain/core/crm/listCustomFields';
import { CustomFieldParams, DefineCustomFieldBody } from './dtos';
import { CustomFieldListView, CustomFieldView } from './views';
import { crmGate } from './customers';
import { defineReplaceCustomFieldDoc, deleteCustomFieldDoc } from './fields.docs';

/** /api/customers/fields: the organisation's custom fields. */
export function customFieldRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM custom fields');

  r.get(
    '/api/customers/fields',
    { ...crmGate, permission: 'core.customers.read', summary: 'List custom fields', response: CustomFieldListView },
    async ({ ctx }) => ({
      items: (await listCustomFields(ctx)).map(CustomFieldView.from),
    }),
  );

  r.get(
    '/api/customers/fields/:key',
    {
      ...crmGate,
      permission: 'core.customers.read',
      summary: 'Get a custom field',
      params: CustomFieldParams,
      response: CustomFieldView,
    },
    async ({ ctx, params }) => CustomFieldView.from(await getCustomField(ctx, params.key)),
  );

  r.put(
    '/api/customers/fields/:key',
    {
      ...crmGate,
      permission: 'core.settings.manage',
      summary: 'Define or replace a custom field',
      description: defineReplaceCustomFieldDoc,
      params: CustomFieldParams,
      body: DefineCustomFieldBody,
      response: CustomFieldView,
      alsoAnswers: { 201: 'The field was created' },
      errors: { 409: '`field_in_use`, `custom_field_limit_reached`' },
    },
    async ({ ctx, params, body }) => {
      const { field, created: isNew } = await defineCustomField(ctx, params.key, body);
      return isNew
        ? created(CustomFieldView.from(field), `/api/customers/fields/${field.key}`)
        : CustomFieldView.from(field);
    },
  );

  r.delete(
    '/api/customers/fields/:key',
    {
      ...crmGate,
      permission: 'core.settings.manage',
      summary: 'Delete a custom field',
      description: deleteCustomFieldDoc,
      params: CustomFieldParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteCustomField(ctx, params.key);
      return noContent();
    },
  );
}
