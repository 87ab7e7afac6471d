import { createAccount, type Account } from '../support/factories';
import { createArticle, createSpace, richDoc } from '../support/knowledge';
import { startStack, type TestStack } from '../support/stack';

/**
 * Version history of rich articles: saving a document unchanged (an editor's autosave, an MCP update with the
 * content it just read) writes no version, whatever the key order jsonb gave it back in (regression of the audit
 * test/audit-kb/versions.test.ts). The comparison itself: domain/knowledge/content.test.ts.
 */
describe('rich article versions', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack?.close());

  const versions = async (id: string) =>
    (await stack.http.get(`/api/knowledge/articles/${id}/versions`).set(owner.auth).expect(200)).body
      .items as unknown[];

  it('saving an unchanged rich document (as sent at creation) writes no new version', async () => {
    const space = await createSpace(stack, owner);
    const doc = richDoc('Hello world', 'Second paragraph');
    const article = await createArticle(stack, owner, space.id, {
      title: 'Rich',
      kind: 'rich',
      contentMarkdown: undefined,
      content: doc,
    });
    expect(article.version).toBe(1);

    const res = await stack.http.patch(`/api/knowledge/articles/${article.id}`).set(owner.auth).send({ content: doc });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(await versions(article.id)).toHaveLength(1);
  });

  it('the same document in editor key order (type first) or as GET returns it writes no version; a real change does', async () => {
    const space = await createSpace(stack, owner);
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          attrs: { textAlign: 'left', level: null },
          content: [
            {
              type: 'text',
              text: 'bold',
              marks: [{ type: 'bold' }, { type: 'link', attrs: { href: 'https://example.com', target: '_blank' } }],
            },
          ],
        },
      ],
    };
    const article = await createArticle(stack, owner, space.id, {
      title: 'Rich 2',
      kind: 'rich',
      contentMarkdown: undefined,
      content: doc,
    });
    const read = await stack.http.get(`/api/knowledge/articles/${article.id}`).set(owner.auth).expect(200);
    expect(
      (
        await stack.http
          .patch(`/api/knowledge/articles/${article.id}`)
          .set(owner.auth)
          .send({ content: read.body.content })
          .expect(200)
      ).body.version,
    ).toBe(1);
    expect(
      (
        await stack.http
          .patch(`/api/knowledge/articles/${article.id}`)
          .set(owner.auth)
          .send({ content: doc })
          .expect(200)
      ).body.version,
    ).toBe(1);
    expect(await versions(article.id)).toHaveLength(1);

    // Marks in another order, or another attribute value, are another document.
    const reordered = structuredClone(doc);
    reordered.content[0].content[0].marks.reverse();
    expect(
      (
        await stack.http
          .patch(`/api/knowledge/articles/${article.id}`)
          .set(owner.auth)
          .send({ content: reordered })
          .expect(200)
      ).body.version,
    ).toBe(2);
    const retargeted = structuredClone(reordered);
    retargeted.content[0].content[0].marks[0].attrs!.target = '_self';
    expect(
      (
        await stack.http
          .patch(`/api/knowledge/articles/${article.id}`)
          .set(owner.auth)
          .send({ content: retargeted })
          .expect(200)
      ).body.version,
    ).toBe(3);
    expect(await versions(article.id)).toHaveLength(3);
  });
});
