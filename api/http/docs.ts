/**
 * `prose` writes a long OpenAPI description in a route's sibling `*.docs.ts` file wrapped at 120 columns:
 * a single line break and the indentation around it become one space, a blank line stays a paragraph break
 * ("\n\n"), and the ends are trimmed. So the text reads as written in the editor and the document says the
 * same as one long line would.
 */
export function prose(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((text, part, i) => text + part + (i < values.length ? String(values[i]) : ''), '');
  return raw
    .trim()
    .split(/[ \t]*\n[ \t]*\n\s*/)
    .map((paragraph) => paragraph.replace(/[ \t]*\n[ \t]*/g, ' '))
    .join('\n\n');
}
