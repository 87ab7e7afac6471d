import {
  checkRichDocument,
  contentFor,
  contentHtml,
  contentText,
  flattenRich,
  renderMarkdown,
  sameJson,
} from './content';

const doc = (...paragraphs: string[]) => ({
  type: 'doc',
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});

describe('sameJson', () => {
  it('compares JSON documents whatever their key order, arrays in order', () => {
    expect(sameJson({ a: 1, b: { c: [1, { d: 'x', e: null }] } }, { b: { c: [1, { e: null, d: 'x' }] }, a: 1 })).toBe(
      true,
    );
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: null }, {})).toBe(false);
    expect(sameJson({ a: [] }, { a: {} })).toBe(false);
    expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});

describe('checkRichDocument', () => {
  it('accepts a document a ProseMirror schema could hold', () => {
    const rich = {
      type: 'doc',
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Hi', marks: [{ type: 'bold' }] }] },
      ],
    };
    expect(checkRichDocument(rich)).toBe(rich);
  });

  it.each([
    [{ type: 'paragraph' }, 'content'],
    [[], 'content'],
    [{ type: 'doc', content: [{ type: 'text', text: '' }] }, 'content.content[0].text'],
    [{ type: 'doc', content: [{ type: 'paragraph', text: 'x' }] }, 'content.content[0].text'],
    [{ type: 'doc', content: [{ type: 'paragraph', style: 'red' }] }, 'content.content[0].style'],
    [{ type: 'doc', content: [{ type: 'bad type' }] }, 'content.content[0].type'],
    [{ type: 'doc', content: [{ type: 'text', text: 'x', marks: [{}] }] }, 'content.content[0].marks[0]'],
    [{ type: 'doc', content: {} }, 'content.content'],
  ])('refuses %j naming %s', (value, field) => {
    expect(() => checkRichDocument(value)).toThrow(
      expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field })] }),
    );
  });

  it('refuses more than 20,000 nodes', () => {
    const huge = { type: 'doc', content: Array.from({ length: 20_000 }, () => ({ type: 'horizontalRule' })) };
    expect(() => checkRichDocument(huge)).toThrow(
      expect.objectContaining({ errors: [{ field: 'content', message: 'must hold at most 20000 nodes' }] }),
    );
  });
});

describe('contentFor', () => {
  it('gives a rich article created without content an empty document', () => {
    expect(contentFor('rich', undefined, undefined, true)).toEqual({
      content: { type: 'doc', content: [] },
      contentMarkdown: null,
    });
    expect(contentFor('rich', undefined, undefined, false)).toEqual({ content: null, contentMarkdown: null });
  });

  it("refuses the other kind's field, and a developer article created without Markdown", () => {
    expect(() => contentFor('rich', undefined, '# x', true)).toThrow(
      expect.objectContaining({ errors: [expect.objectContaining({ field: 'contentMarkdown' })] }),
    );
    expect(() => contentFor('developer', doc('x'), undefined, false)).toThrow(
      expect.objectContaining({ errors: [expect.objectContaining({ field: 'content' })] }),
    );
    expect(() => contentFor('developer', undefined, undefined, true)).toThrow(
      expect.objectContaining({
        errors: [{ field: 'contentMarkdown', message: 'is required for a developer article' }],
      }),
    );
    expect(contentFor('developer', undefined, undefined, false)).toEqual({ content: null, contentMarkdown: null });
  });
});

describe('text and HTML of content', () => {
  it('flattens a rich document one line per block', () => {
    expect(flattenRich(doc('First', 'Second') as never)).toBe('First\nSecond');
    const withBreak = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'a' }, { type: 'hardBreak' }, { type: 'text', text: 'b' }],
        },
      ],
    };
    expect(flattenRich(withBreak as never)).toBe('a\nb');
  });

  it('strips Markdown for the index and cuts the excerpt at 280 characters', () => {
    expect(contentText('developer', null, '# Title\n\nSome **bold** & <text>.')).toEqual({
      text: 'Title\nSome bold & <text>.',
      excerpt: 'Title Some bold & <text>.',
    });
    const long = contentText('developer', null, 'word '.repeat(100)).excerpt;
    expect(long).toHaveLength(280);
    expect(long.endsWith('…')).toBe(true);
  });

  it('never lets a script through, from Markdown or a rich document', () => {
    const markdown = renderMarkdown(
      '<script>alert(1)</script> [x](javascript:alert(1)) <a href="javascript:alert(1)">y</a>',
    );
    expect(markdown).not.toMatch(/<script|<a\b/);
    expect(markdown).toContain('&lt;script&gt;');
    const rich = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            {
              type: 'text',
              text: '<img onerror=x>',
              marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }],
            },
          ],
        },
      ],
    };
    const html = contentHtml('rich', rich as never, null);
    expect(html).not.toMatch(/href|<img/);
    expect(html).toContain('&lt;img onerror=x&gt;');
  });

  it('adds rel noopener to links', () => {
    expect(renderMarkdown('[site](https://example.com)')).toBe(
      '<p><a href="https://example.com" rel="noopener noreferrer nofollow">site</a></p>\n',
    );
  });
});
