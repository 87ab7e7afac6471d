import { Resolver } from 'node:dns/promises';
import type { Config } from '../../../lib/config';

/** DNS answers that mean "no such record" rather than "the lookup failed". */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/**
 * The TXT records of a name (each as its strings), through SSO_DNS_SERVERS when set (tests run a local DNS server),
 * else the system's resolvers. No record is []; a failed lookup (timeout, refused) throws.
 */
export async function lookupTxt(config: Pick<Config, 'SSO_DNS_SERVERS'>, name: string): Promise<string[][]> {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  const servers = config.SSO_DNS_SERVERS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (servers.length) resolver.setServers(servers);
  try {
    return await resolver.resolveTxt(name);
  } catch (err) {
    if (ABSENT.has((err as { code?: string }).code ?? '')) return [];
    throw err;
  }
}
