import { flushKnowledgeStats } from '../../domain/knowledge/flushStats';
import { addMember, createAccount, type Account } from '../support/factories';
import { createArticle, createSpace, knowledgeKey } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';
import { spaceViewsCounted } from './views';

/**
 * Space statistics of an internal wiki, read by members only (never on the public surface): member reads of
 * published articles count, reads through an integration key do not (regression of the audit
 * test/audit-kb/analytics.test.ts).
 */
describe('analytics of member reads', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack?.close());

  it('members reading an article of an internal space are counted in the space analytics', async () => {
    const space = await createSpace(stack, owner, { name: 'Wiki', mode: 'internal' });
    const article = await createArticle(stack, owner, space.id, {
      title: 'On-call runbook',
      contentMarkdown: 'Steps.',
    });
    await stack.http.post(`/api/knowledge/articles/${article.id}/publish`).set(owner.auth).expect(200);
    const reader = await addMember(stack, owner, 'member');
    await stack.http.get(`/api/knowledge/articles/${article.id}`).set(reader.auth).expect(200);
    await stack.http.get(`/api/knowledge/articles/${article.id}`).set(reader.auth).expect(200);
    await stack.http.get(`/api/knowledge/articles/${article.id}`).set(owner.auth).expect(200);
    await eventually(async () => (await spaceViewsCounted(stack, owner.tenantId, space.id)) === 3, {
      what: 'three views counted',
    });
    await flushKnowledgeStats(stack.services);
    const stats = await stack.http.get(`/api/knowledge/spaces/${space.id}/analytics`).set(owner.auth).expect(200);
    expect(stats.body.views).toBe(3);
    expect(stats.body.uniqueReaders).toBe(2);
    expect(stats.body.topArticles).toEqual([expect.objectContaining({ articleId: article.id, views: 3, readers: 2 })]);
  });

  it('counts neither reads through an integration key nor reads of a draft', async () => {
    const space = await createSpace(stack, owner, { name: 'Drafts', mode: 'internal' });
    const published = await createArticle(stack, owner, space.id, { title: 'Published', contentMarkdown: 'Yes.' });
    await stack.http.post(`/api/knowledge/articles/${published.id}/publish`).set(owner.auth).expect(200);
    const draft = await createArticle(stack, owner, space.id, { title: 'Draft', contentMarkdown: 'Not yet.' });
    const key = await knowledgeKey(stack, owner, 'read');
    await stack.http.get(`/api/public/knowledge/articles/${published.id}`).set('X-Server-API-Key', key).expect(200);
    await stack.http.get(`/api/public/knowledge/articles/${draft.id}`).set('X-Server-API-Key', key).expect(200);
    await stack.http.get(`/api/knowledge/articles/${draft.id}`).set(owner.auth).expect(200);
    // A counted read elsewhere, after them: once it is counted, a count of the reads above would be too (same connection, in order).
    const marker = await createSpace(stack, owner, { name: 'Marker', mode: 'internal' });
    const markerArticle = await createArticle(stack, owner, marker.id, { title: 'Marker', contentMarkdown: 'm' });
    await stack.http.post(`/api/knowledge/articles/${markerArticle.id}/publish`).set(owner.auth).expect(200);
    await stack.http.get(`/api/knowledge/articles/${markerArticle.id}`).set(owner.auth).expect(200);
    await eventually(async () => (await spaceViewsCounted(stack, owner.tenantId, marker.id)) === 1, {
      what: 'the marker view counted',
    });
    expect(await spaceViewsCounted(stack, owner.tenantId, space.id)).toBe(0);
    await flushKnowledgeStats(stack.services);
    const stats = await stack.http.get(`/api/knowledge/spaces/${space.id}/analytics`).set(owner.auth).expect(200);
    expect(stats.body.views).toBe(0);
    expect(stats.body.topArticles).toEqual([]);
  });
});
