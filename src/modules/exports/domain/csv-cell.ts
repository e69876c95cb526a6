/**
 * A cell a spreadsheet could run as a formula (it starts with = + - @, a tab or a carriage return)
 * is written with a leading `'` (CSV injection; DESIGN part 12). The import reads such a cell back
 * without it, so an export re-imports as itself.
 */
export function safeCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}
