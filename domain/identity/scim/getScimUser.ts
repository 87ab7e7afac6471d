import { isUUID } from 'class-validator';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { scimUserOf } from '../store/scim';
import { scimUserRecords, type ScimUserRecord } from './scimUserRecords';

/** A provisioned account of the organisation by its SCIM id (the account id); 404 for any other id. */
export async function getScimUser(ctx: TenantContext, id: string): Promise<ScimUserRecord> {
  const row = isUUID(id) ? await scimUserOf(ctx.em, id.toLowerCase()) : null;
  if (!row) throw notFound('User');
  const [record] = await scimUserRecords(ctx.em, [row]);
  return record;
}
