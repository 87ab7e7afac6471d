import type sanitizeHtml from 'sanitize-html';
import type { ArticleKind, RichNode } from '../../entities/knowledge/article';
import { invalidField } from '../../lib/errors';
import { onFirstUse } from '../../lib/lazy';

/**
 * Article content: shape checks of rich (ProseMirror / Tiptap JSON) documents, their flattening to text, and
 * Markdown rendered to sanitised HTML (markdown-it, raw HTML in the source disabled, then sanitize-html with an
 * allow-list, so neither source nor renderer can smuggle a script into a public page).
 */
const NODE_TYPE = /^[a-zA-Z][a-zA-Z0-9_]{0,39}$/;
const MAX_NODES = 20_000;
/** Block nodes whose text is separated from the next block's by a line break when flattened. */
const INLINE = new Set(['text', 'hardBreak', 'hard_break', 'mention', 'emoji']);

/** Refuses (400 validation_failed, naming the path) anything that is not a document a ProseMirror schema could hold. */
export function checkRichDocument(doc: unknown, field = 'content'): RichNode {
  if (!isObject(doc) || doc.type !== 'doc')
    throw invalidField(field, 'must be a rich document: an object whose type is "doc"');
  let nodes = 0;
  const visit = (node: unknown, path: string): void => {
    if (++nodes > MAX_NODES) throw invalidField(field, `must hold at most ${MAX_NODES} nodes`);
    if (!isObject(node)) throw invalidField(path, 'must be a node object');
    const { type, attrs, content, text, marks, ...rest } = node;
    const extra = Object.keys(rest);
    if (extra.length)
      throw invalidField(`${path}.${extra[0]}`, 'is not a property of a node (type, attrs, content, text, marks)');
    if (typeof type !== 'string' || !NODE_TYPE.test(type))
      throw invalidField(`${path}.type`, 'must be a node type name');
    if (attrs !== undefined && !isObject(attrs)) throw invalidField(`${path}.attrs`, 'must be an object');
    if (type === 'text') {
      if (typeof text !== 'string' || !text.length)
        throw invalidField(`${path}.text`, 'a text node needs a non-empty text');
      if (content !== undefined) throw invalidField(`${path}.content`, 'a text node has no content');
    } else if (text !== undefined) throw invalidField(`${path}.text`, 'only text nodes carry text');
    if (marks !== undefined) {
      if (!Array.isArray(marks)) throw invalidField(`${path}.marks`, 'must be an array');
      marks.forEach((m, i) => {
        if (
          !isObject(m) ||
          typeof m.type !== 'string' ||
          !NODE_TYPE.test(m.type) ||
          (m.attrs !== undefined && !isObject(m.attrs))
        )
          throw invalidField(`${path}.marks[${i}]`, 'must be a mark { type, attrs? }');
      });
    }
    if (content !== undefined) {
      if (!Array.isArray(content)) throw invalidField(`${path}.content`, 'must be an array of nodes');
      content.forEach((child, i) => visit(child, `${path}.content[${i}]`));
    }
  };
  visit(doc, field);
  return doc as unknown as RichNode;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a rich document, one line per block. */
export function flattenRich(doc: RichNode): string {
  const out: string[] = [];
  const walk = (node: RichNode) => {
    if (node.type === 'text') out.push(node.text ?? '');
    else if (node.type === 'hardBreak' || node.type === 'hard_break') out.push('\n');
    for (const child of node.content ?? []) walk(child);
    if (!INLINE.has(node.type) && node.type !== 'doc') out.push('\n');
  };
  walk(doc);
  return out
    .join('')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

// The renderer and the sanitiser are built by the first article written (or read before its HTML was stored):
// web dynos that only serve stored HTML never load them (lib/lazy.ts).
const renderer = onFirstUse(() => {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const MarkdownIt = require('markdown-it') as typeof import('markdown-it');
  const sanitize = require('sanitize-html') as typeof sanitizeHtml;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const options: sanitizeHtml.IOptions = {
    allowedTags: [...sanitize.defaults.allowedTags, 'img', 'del', 's', 'h1', 'h2'],
    allowedAttributes: {
      a: ['href', 'title', 'rel'],
      img: ['src', 'alt', 'title'],
      code: ['class'],
      th: ['align', 'style'],
      td: ['align', 'style'],
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
    transformTags: { a: sanitize.simpleTransform('a', { rel: 'noopener noreferrer nofollow' }) },
    allowedClasses: { code: [/^language-[\w-]+$/] },
  };
  const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
  return { markdown, sanitize: (html: string, only = options) => sanitize(html, only) };
});

/** Markdown as safe HTML. */
export const renderMarkdown = (source: string): string => {
  const { markdown, sanitize } = renderer();
  return sanitize(markdown.render(source));
};

/** Markdown without its syntax (for the search index and excerpts). */
export const stripMarkdown = (source: string): string => {
  const { markdown, sanitize } = renderer();
  return sanitize(markdown.render(source), { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{2,}/g, '\n')
    .trim();
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A rich document as safe HTML: paragraphs, headings, lists, code, quotes and the common marks; unknown nodes keep their text. */
export function renderRich(doc: RichNode): string {
  const render = (node: RichNode): string => {
    if (node.type === 'text') {
      let html = escapeHtml(node.text ?? '');
      for (const mark of node.marks ?? []) {
        if (mark.type === 'bold' || mark.type === 'strong') html = `<strong>${html}</strong>`;
        else if (mark.type === 'italic' || mark.type === 'em') html = `<em>${html}</em>`;
        else if (mark.type === 'code') html = `<code>${html}</code>`;
        else if (mark.type === 'strike') html = `<s>${html}</s>`;
        else if (mark.type === 'link' && typeof mark.attrs?.href === 'string')
          html = `<a href="${escapeHtml(mark.attrs.href)}">${html}</a>`;
      }
      return html;
    }
    const inner = (node.content ?? []).map(render).join('');
    switch (node.type) {
      case 'doc':
        return inner;
      case 'paragraph':
        return `<p>${inner}</p>`;
      case 'heading': {
        const level = Math.min(6, Math.max(1, Number(node.attrs?.level) || 2));
        return `<h${level}>${inner}</h${level}>`;
      }
      case 'bulletList':
      case 'bullet_list':
        return `<ul>${inner}</ul>`;
      case 'orderedList':
      case 'ordered_list':
        return `<ol>${inner}</ol>`;
      case 'listItem':
      case 'list_item':
        return `<li>${inner}</li>`;
      case 'blockquote':
        return `<blockquote>${inner}</blockquote>`;
      case 'codeBlock':
      case 'code_block':
        return `<pre><code>${inner}</code></pre>`;
      case 'hardBreak':
      case 'hard_break':
        return '<br />';
      case 'horizontalRule':
      case 'horizontal_rule':
        return '<hr />';
      case 'image':
        return typeof node.attrs?.src === 'string'
          ? `<img src="${escapeHtml(node.attrs.src)}" alt="${escapeHtml(String(node.attrs.alt ?? ''))}" />`
          : '';
      default:
        return inner;
    }
  };
  return renderer().sanitize(render(doc));
}

/** Plain text of an article's content, and a short excerpt of it. */
export function contentText(
  kind: 'rich' | 'developer',
  content: RichNode | null,
  markdownSource: string | null,
): { text: string; excerpt: string } {
  const text = kind === 'rich' ? (content ? flattenRich(content) : '') : stripMarkdown(markdownSource ?? '');
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return { text, excerpt: oneLine.length > 280 ? `${oneLine.slice(0, 279)}…` : oneLine };
}

/** Rendered HTML of an article's content. */
export const contentHtml = (
  kind: 'rich' | 'developer',
  content: RichNode | null,
  markdownSource: string | null,
): string => (kind === 'rich' ? (content ? renderRich(content) : '') : renderMarkdown(markdownSource ?? ''));

/**
 * The content columns of a kind: rich articles take `content` (a document whose shape is checked), developer
 * ones `contentMarkdown`; the other field is refused. On creation a developer article needs its Markdown and a
 * rich one without content starts empty.
 */
export function contentFor(
  kind: ArticleKind,
  content: unknown,
  markdown: string | undefined,
  creating: boolean,
): { content: RichNode | null; contentMarkdown: string | null } {
  if (kind === 'rich') {
    if (markdown !== undefined)
      throw invalidField('contentMarkdown', 'is for developer articles; a rich article takes content');
    if (content === undefined)
      return { content: creating ? { type: 'doc', content: [] } : null, contentMarkdown: null };
    return { content: checkRichDocument(content), contentMarkdown: null };
  }
  if (content !== undefined)
    throw invalidField('content', 'is for rich articles; a developer article takes contentMarkdown');
  if (markdown === undefined && creating) throw invalidField('contentMarkdown', 'is required for a developer article');
  return { content: null, contentMarkdown: markdown ?? null };
}

/**
 * Equality of two JSON values as documents: objects compare by their properties whatever their key order (jsonb
 * stores keys sorted by length then bytes, editors write `type` first), arrays element by element in order, and a
 * property holding undefined counts as absent (as in JSON and jsonb). Comparing JSON.stringify would see the same
 * document read back from jsonb as changed, and write a version for an unchanged save.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  if (keys.length !== Object.keys(b).filter((k) => b[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}
