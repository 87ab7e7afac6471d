/**
 * Text for xmlbuilder2's txt() and attribute values, so the document reads back exactly as entered. xmlbuilder2
 * escapes `<`, `>` and a lone `&`, but leaves `&word;` and `&#digits;` as written (entity references, by design):
 * `Prix&nbsp;HT` would be an undefined entity (not well-formed), `R&amp;D` would read `R&D`. Escaping every `&`
 * first leaves it nothing to interpret.
 */
export const literal = (text: string): string => text.replaceAll('&', '&amp;');

/** Text placed into XML written by hand (the PDF's XMP packet). */
export const escapeXml = (text: string): string => literal(text).replaceAll('<', '&lt;').replaceAll('>', '&gt;');
