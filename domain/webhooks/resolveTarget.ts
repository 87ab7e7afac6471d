import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { AppError } from '../../lib/errors';
import { bareHost, isAllowedHost, isRefusedAddress, urlProblem, type AddressPolicy } from './addressPolicy';

export class RefusedTarget extends Error {}

/**
 * The addresses an endpoint's host resolves to, every one of them allowed by the policy; throws RefusedTarget
 * otherwise (a name resolving to a private address, or not resolving). An exempt host resolves without checks.
 */
export async function resolveTarget(url: URL, policy: AddressPolicy): Promise<{ address: string; family: number }[]> {
  const host = bareHost(url);
  if (isIP(host)) {
    if (!isAllowedHost(url, policy) && isRefusedAddress(host)) throw new RefusedTarget(`address ${host} refused`);
    return [{ address: host, family: isIP(host) }];
  }
  let found: { address: string; family: number }[];
  try {
    found = await lookup(host, { all: true, verbatim: true });
  } catch (err) {
    throw new RefusedTarget(`${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!isAllowedHost(url, policy)) {
    const bad = found.find((a) => isRefusedAddress(a.address));
    if (bad) throw new RefusedTarget(`${host} resolves to ${bad.address}, a private, loopback or link-local address`);
  }
  return found;
}

/** Checks an endpoint URL as a member gives it: 422 `webhook_url_refused` with the reason. */
export async function checkEndpointUrl(raw: string, policy: AddressPolicy): Promise<void> {
  const problem = urlProblem(raw, policy);
  const refuse = (detail: string) => new AppError(422, 'webhook_url_refused', `The URL is refused: ${detail}`);
  if (problem) throw refuse(problem);
  try {
    await resolveTarget(new URL(raw), policy);
  } catch (err) {
    if (err instanceof RefusedTarget) throw refuse(err.message);
    throw err;
  }
}
