/** A `%…%` ILIKE pattern that matches the text literally: `%`, `_` and `\` in it are escaped. */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Adds a value to a parameter list and answers its placeholder (`$3`). */
export const param = (params: unknown[], value: unknown): string => `$${params.push(value)}`;
