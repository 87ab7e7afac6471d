import type { TenantContext } from '../../context';
import { groupRow, serviceRow, staffRow, type GroupRow, type ServiceRow, type StaffRow } from './store/catalogue';

/** One catalogue item for members: 404 for an unknown id, a malformed one or another organisation's. */
export const getService = (ctx: TenantContext, id: string): Promise<ServiceRow> => serviceRow(ctx, id);
export const getGroup = (ctx: TenantContext, id: string): Promise<GroupRow> => groupRow(ctx, id);
export const getStaff = (ctx: TenantContext, id: string): Promise<StaffRow> => staffRow(ctx, id);
