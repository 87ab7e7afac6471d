/** Lower-case ASCII words joined by hyphens ("Héllo, World!" -> "hello-world"); `fallback` when nothing is left. */
export function slugify(text: string, max = 80, fallback = 'untitled'): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/g, '');
  return slug || fallback;
}
