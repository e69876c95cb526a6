/**
 * A cell a spreadsheet could run as a formula (it starts with = + - @, a tab or a carriage return)
 * is written with a leading `'` (CSV injection; DESIGN part 12). So is a cell that starts with `'`
 * itself: the import drops one leading `'` before those characters and before `'`, so an export
 * re-imports as itself, "'-Jane" included.
 */
export function safeCell(text: string): string {
  return /^[=+\-@\t\r']/.test(text) ? `'${text}` : text;
}
