import type { SsoProvider } from '../../../entities/identity/sso';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { ssoProviderOf } from '../store/sso';

/** The organisation's provider (the caller holds org.manage); 404 when it has none. */
export async function describeSsoProvider(ctx: TenantContext): Promise<SsoProvider> {
  const provider = await ssoProviderOf(ctx.em);
  if (!provider) throw notFound('Single sign-on provider');
  return provider;
}
