import type { Account } from './factories';
import type { TestStack } from './stack';

type Body = { id: string } & Record<string, unknown>;

/** Creates through the member API; throws with the answer when it is not a 201. */
async function post(stack: TestStack, account: Account, path: string, body: Record<string, unknown>): Promise<Body> {
  const res = await stack.http.post(path).set(account.auth).send(body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Body;
}

export const createSpace = (stack: TestStack, account: Account, body: Record<string, unknown> = {}) =>
  post(stack, account, '/api/knowledge/spaces', { name: 'Handbook', mode: 'internal', ...body });

export const createArticle = (
  stack: TestStack,
  account: Account,
  spaceId: string,
  body: Record<string, unknown> = {},
) =>
  post(stack, account, `/api/knowledge/spaces/${spaceId}/articles`, {
    title: 'An article',
    kind: 'developer',
    contentMarkdown: '# Hello\n\nSome text.',
    ...body,
  });

/** A rich document of paragraphs. */
export const richDoc = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

/** A published article of a new public space; returns both. */
export async function publishedArticle(
  stack: TestStack,
  account: Account,
  space: Record<string, unknown> = {},
  article: Record<string, unknown> = {},
): Promise<{ space: Body; article: Body }> {
  const s = await createSpace(stack, account, { mode: 'public_kb', ...space });
  const a = await createArticle(stack, account, s.id, article);
  const res = await stack.http.post(`/api/knowledge/articles/${a.id}/publish`).set(account.auth);
  if (res.status !== 200) throw new Error(`publish: ${res.status} ${JSON.stringify(res.body)}`);
  return { space: s, article: res.body as Body };
}

/** A key of the integration surface. */
export async function knowledgeKey(stack: TestStack, account: Account, scope: 'read' | 'write'): Promise<string> {
  const res = await stack.http
    .post('/api/knowledge/keys')
    .set(account.auth)
    .send({ label: `${scope} key`, scope });
  if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key as string;
}
