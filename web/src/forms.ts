/** Form logic with no React in it: what goes to the API, and how its answer comes back to the fields. */

/**
 * The service's 400 message names every bad field ("amount must be a positive number; customerid
 * must be an integer"): each part goes next to the field it starts with; the rest is for the form.
 */
export function fieldErrors(message: string, fields: readonly string[]): { byField: Record<string, string>; rest: string[] } {
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  for (const part of message.split('; ')) {
    const field = fields.find((name) => part === name || part.startsWith(`${name} `));
    if (field) byField[field] = byField[field] ? `${byField[field]}; ${part}` : part;
    else rest.push(part);
  }
  return { byField, rest };
}

/** Form values to a request body: empty optional strings are left out, numbers and false stay. */
export function compact<T extends Record<string, unknown>>(values: T): T {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== null && v !== undefined)) as T;
}

/** A required field left empty (or only spaces) gets `message` before anything is sent: the service would name it less plainly. */
export function requiredErrors(values: Record<string, unknown>, required: readonly string[], message: string): Record<string, string> {
  return Object.fromEntries(required.filter((name) => values[name] === undefined || values[name] === null || String(values[name]).trim() === '').map((name) => [name, message]));
}
