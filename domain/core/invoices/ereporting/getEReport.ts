import type { EReport } from '../../../../entities/core/ereport';
import type { TenantContext } from '../../../context';
import { findReport } from './store';

/** One e-report with its aggregated lines; another organisation's is 404. */
export const getEReport = (ctx: TenantContext, id: string): Promise<EReport> => findReport(ctx.em, id);
