import type { TenantContext } from '../../context';
import { ssoDomainsOf } from '../store/sso';

/** The organisation's claimed domains, verified or not, by name (the caller holds org.manage). */
export const listSsoDomains = (ctx: TenantContext) => ssoDomainsOf(ctx.em);
