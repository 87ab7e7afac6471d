import type { ModuleMount } from '../../http/mount';
import { created, noContent } from '../../http/routes';
import { IdParams } from '../../http/dtos';
import { createCustomer } from '../../../domain/core/crm/createCustomer';
import { parseCustomFilters } from '../../../domain/core/crm/customValues';
import { fieldDefinitions } from '../../../domain/core/crm/fieldDefinitions';
import { deleteCustomer } from '../../../domain/core/crm/deleteCustomer';
import { readCustomer } from '../../../domain/core/crm/getCustomer';
import { listCustomers } from '../../../domain/core/crm/listCustomers';
import { addRelation } from '../../../domain/core/crm/addRelation';
import { relationsOf } from '../../../domain/core/crm/relationsOf';
import { removeRelation } from '../../../domain/core/crm/removeRelation';
import { updateCustomer } from '../../../domain/core/crm/updateCustomer';
import { getSavedView } from '../../../domain/core/crm/views/getSavedView';
import { withView } from '../../../domain/core/crm/views/viewColumns';
import {
  CreateCustomerBody,
  customerFilterNames,
  ListCustomersQuery,
  RelationBody,
  RelationParams,
  UpdateCustomerBody,
} from './dtos';
import { CustomerDetailView, CustomerPageView, CustomerView, RelationView } from './views';
import {
  listCustomersDoc,
  createCustomerDoc,
  editCustomerDoc,
  deleteCustomerDoc,
  relateCustomerAnotherDoc,
} from './customers.docs';

export const crmGate = { access: 'user', module: 'core' } as const;

/** /api/customers: the party model (registered after the static /api/customers/... routes). */
export function customerRoutes({ routes }: ModuleMount): void {
  const r = routes('CRM customers');
  const read = { ...crmGate, permission: 'core.customers.read' } as const;
  const write = { ...crmGate, permission: 'core.customers.write' } as const;

  r.get(
    '/api/customers',
    {
      ...read,
      summary: 'List customers',
      description: listCustomersDoc,
      query: ListCustomersQuery,
      response: CustomerPageView,
      errors: { 404: 'The saved view named by `view` (none of yours, nor shared)' },
    },
    async ({ ctx, query: asked }) => {
      const query = asked.view
        ? withView(await getSavedView(ctx, 'customers', asked.view), asked, customerFilterNames)
        : asked;
      const defs = await fieldDefinitions(ctx);
      const page = await listCustomers(ctx, {
        ...query,
        custom: query.custom ? parseCustomFilters(defs, query.custom) : undefined,
      });
      return CustomerPageView.from(page, defs);
    },
  );

  r.post(
    '/api/customers',
    {
      ...write,
      summary: 'Create a customer',
      description: createCustomerDoc,
      body: CreateCustomerBody,
      response: CustomerView,
      status: 201,
      errors: { 409: '`external_id_taken`' },
    },
    async ({ ctx, body }) => {
      const customer = await createCustomer(ctx, body);
      return created(CustomerView.from(customer, await fieldDefinitions(ctx)), `/api/customers/${customer.id}`);
    },
  );

  r.get(
    '/api/customers/:id',
    { ...read, summary: 'Get a customer with its relations', params: IdParams, response: CustomerDetailView },
    async ({ ctx, params }) => {
      // The customer first: an unknown id answers 404 before any other read.
      const customer = await readCustomer(ctx, params.id);
      const [defs, relations] = await Promise.all([fieldDefinitions(ctx), relationsOf(ctx, customer.id)]);
      const view: CustomerDetailView = {
        ...CustomerView.from(customer, defs),
        relations: relations.map(RelationView.from),
      };
      return view;
    },
  );

  r.patch(
    '/api/customers/:id',
    {
      ...write,
      summary: 'Edit a customer',
      description: editCustomerDoc,
      params: IdParams,
      body: UpdateCustomerBody,
      response: CustomerView,
      errors: { 409: '`external_id_taken`' },
    },
    async ({ ctx, params, body }) =>
      CustomerView.from(await updateCustomer(ctx, params.id, body), await fieldDefinitions(ctx)),
  );

  r.delete(
    '/api/customers/:id',
    {
      ...write,
      summary: 'Delete a customer',
      description: deleteCustomerDoc,
      params: IdParams,
      status: 204,
      errors: { 409: '`customer_in_use`' },
    },
    async ({ ctx, params }) => {
      await deleteCustomer(ctx, params.id);
      return noContent();
    },
  );

  r.post(
    '/api/customers/:id/relations',
    {
      ...write,
      summary: 'Relate the customer to another',
      description: relateCustomerAnotherDoc,
      params: IdParams,
      body: RelationBody,
      response: RelationView,
      status: 201,
      errors: { 409: '`relation_exists`' },
    },
    async ({ ctx, params, body }) => created(RelationView.from(await addRelation(ctx, params.id, body))),
  );

  r.delete(
    '/api/customers/:id/relations/:relationId',
    { ...write, summary: 'Remove a relation (from either end)', params: RelationParams, status: 204 },
    async ({ ctx, params }) => {
      await removeRelation(ctx, params.id, params.relationId);
      return noContent();
    },
  );
}
