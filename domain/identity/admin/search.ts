/** ILIKE condition matching `text` anywhere, with the wildcards of the search text taken literally. */
export const containing = (text: string) => ({ $ilike: `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
