/**
 * A value as jsonb can store it: PostgreSQL refuses the NUL character and lone UTF-16 surrogates in
 * jsonb text, so each becomes U+FFFD (in keys too). For bodies kept as sent whose unknown fields were
 * never screened (a webhook's); everything else is refused such text at the door (screenInput).
 */
export function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [storableText(key), storableJson(child)]));
}

function storableText(text: string): string {
  return text.replaceAll('\u0000', '\ufffd').toWellFormed();
}
