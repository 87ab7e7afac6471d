import { Plan } from '../../entities/billing/plan';
import type { Account } from './factories';
import type { TestStack } from './stack';

export interface Uploaded {
  id: string;
  name: string;
  size: number;
  [key: string]: unknown;
}

/** Step 1 of an upload; returns the ticket (or throws with the answer). */
export async function uploadUrl(stack: TestStack, who: Account, body: Record<string, unknown>) {
  const res = await stack.http.post('/api/cloud/files/upload-url').set(who.auth).send(body);
  if (res.status !== 201) throw new Error(`upload-url answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as {
    uploadId: string;
    url: string;
    method: string;
    headers: Record<string, string>;
    expiresAt: string;
    confirmBy: string;
  };
}

/** Step 2: the client PUTs the bytes straight to the store. */
export async function putBytes(
  ticket: { url: string; headers: Record<string, string> },
  bytes: Buffer | string,
  headers: Record<string, string> = ticket.headers,
): Promise<number> {
  const res = await fetch(ticket.url, { method: 'PUT', body: bytes, headers });
  await res.arrayBuffer();
  return res.status;
}

/** The three steps of an upload, as a client does them; returns the confirmed file. */
export async function uploadFile(
  stack: TestStack,
  who: Account,
  name: string,
  bytes: Buffer | string,
  options: { contentType?: string; folderId?: string } = {},
): Promise<Uploaded> {
  const size = Buffer.byteLength(bytes);
  const ticket = await uploadUrl(stack, who, {
    name,
    size,
    contentType: options.contentType ?? 'text/plain',
    ...(options.folderId ? { folderId: options.folderId } : {}),
  });
  const put = await putBytes(ticket, bytes);
  if (put >= 300) throw new Error(`PUT answered ${put}`);
  const res = await stack.http
    .post('/api/cloud/files/upload-confirm')
    .set(who.auth)
    .send({ uploadId: ticket.uploadId });
  if (res.status !== 201) throw new Error(`upload-confirm answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Uploaded;
}

/** Downloads a file through its download-url, as a browser would. */
export async function download(
  stack: TestStack,
  who: Account,
  fileId: string,
): Promise<{ status: number; bytes: Buffer; disposition: string | null }> {
  const res = await stack.http.get(`/api/cloud/files/${fileId}/download-url`).set(who.auth);
  if (res.status !== 200) throw new Error(`download-url answered ${res.status}: ${JSON.stringify(res.body)}`);
  const got = await fetch(res.body.url);
  return {
    status: got.status,
    bytes: Buffer.from(await got.arrayBuffer()),
    disposition: got.headers.get('content-disposition'),
  };
}

/** Sets the cloud quota of a tier (test set-up), and drops the cached entitlements of these organisations. */
export async function setTierQuota(stack: TestStack, tier: string, bytes: number, tenantIds: string[]): Promise<void> {
  const em = stack.services.orm.em.fork();
  const plan = await em.findOneOrFail(Plan, { tier });
  plan.entitlements = { ...plan.entitlements, limits: { ...plan.entitlements.limits, cloudQuotaBytes: bytes } };
  await em.flush();
  for (const id of tenantIds) await stack.services.entitlements.invalidate(id);
}

export const mkdir = async (
  stack: TestStack,
  who: Account,
  name: string,
  parentId?: string,
): Promise<{ id: string; name: string }> => {
  const res = await stack.http
    .post('/api/cloud/folders')
    .set(who.auth)
    .send({ name, ...(parentId ? { parentId } : {}) });
  if (res.status !== 201) throw new Error(`create folder answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
