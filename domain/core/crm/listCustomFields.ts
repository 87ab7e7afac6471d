import type { CustomField } from '../../../entities/core/customField';
import type { TenantContext } from '../../context';
import { customFieldsByKey } from './store/customFields';

/** The organisation's custom field definitions, by key. */
export const listCustomFields = (ctx: TenantContext): Promise<CustomField[]> => customFieldsByKey(ctx.em);
