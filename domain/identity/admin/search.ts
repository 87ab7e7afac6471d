/** ILIKE pattern (a statement parameter) matching `text` anywhere, with the wildcards of the search text taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
