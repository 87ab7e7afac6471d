import type { TenantContext } from '../../context';
import {
  groupsInOrder,
  servicesByName,
  staffByName,
  type GroupRow,
  type ServiceRow,
  type StaffRow,
} from './store/catalogue';

/** The catalogue's lists for members: services and staff by name, groups in display order, inactive ones included. */
export const listServices = (ctx: TenantContext): Promise<ServiceRow[]> => servicesByName(ctx);
export const listGroups = (ctx: TenantContext): Promise<GroupRow[]> => groupsInOrder(ctx);
export const listStaff = (ctx: TenantContext): Promise<StaffRow[]> => staffByName(ctx);
