import { BlockList, isIP } from 'node:net';

/**
 * Where a webhook may go. Customers name the URL, so without a policy the worker would be a way into the internal
 * network (SSRF): private, loopback, link-local, CGNAT, multicast and unspecified addresses are refused, when the
 * endpoint is created (a literal address, or a name resolving to one) and again at every delivery on the address
 * the connection is made to (so a DNS rebinding after the check reaches nothing: deliver.ts connects to the
 * address it checked). Hosts of WEBHOOK_ALLOWED_HOSTS (tests, a local receiver) are exempt.
 */
const refused = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  refused.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  refused.addSubnet(net, prefix, 'ipv6');

/** Whether a connection to this IP address is refused (an IPv4-mapped IPv6 address is judged as its IPv4). */
export function isRefusedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isRefusedAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface AddressPolicy {
  /** Plain http allowed for every host (development). */
  allowHttp: boolean;
  /** Lower-case host names or host:port exempt from the policy. */
  allowedHosts: readonly string[];
}

export const addressPolicyOf = (config: { WEBHOOK_ALLOWED_HOSTS: string; NODE_ENV: string }): AddressPolicy => ({
  allowHttp: config.NODE_ENV === 'development',
  allowedHosts: config.WEBHOOK_ALLOWED_HOSTS.split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean),
});

/** Whether the URL's host is exempt (listed by name, or by name and port). */
export function isAllowedHost(url: URL, policy: AddressPolicy): boolean {
  const host = url.hostname.toLowerCase();
  return policy.allowedHosts.includes(host) || policy.allowedHosts.includes(url.host.toLowerCase());
}

/** The host without IPv6 brackets. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * What is wrong with an endpoint URL as written (before any DNS), or null: not http(s), http outside development
 * (unless exempt), credentials in it, a literal refused address or a name that is local by definition.
 */
export function urlProblem(raw: string, policy: AddressPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'only https URLs are accepted';
  if (url.username || url.password) return 'credentials in the URL are not accepted';
  const exempt = isAllowedHost(url, policy);
  if (url.protocol === 'http:' && !policy.allowHttp && !exempt) return 'only https URLs are accepted';
  if (exempt) return null;
  const host = bareHost(url).toLowerCase();
  if (isIP(host)) return isRefusedAddress(host) ? 'private, loopback and link-local addresses are refused' : null;
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal'))
    return 'private, loopback and link-local addresses are refused';
  if (!host.includes('.')) return 'the host must be a fully qualified domain name';
  return null;
}
