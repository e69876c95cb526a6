/**
 * A closed set of string values that reads like an enum (`Role.ADMIN`) and types like a union
 * (`'ADMIN' | 'OPERATOR' | …`), declared in one line:
 *
 *   export const Role = stringEnum('ADMIN', 'OPERATOR');
 *   export type Role = EnumValue<typeof Role>;
 *
 * Why not TypeScript's `enum`: it is not erasable syntax (Node's own type stripping refuses it), a
 * string enum does not accept the plain string a client sent, and eighteen of them repeated the same
 * `A = 'A'` shape. The object is frozen, so `Object.values(Role)`, class-validator's `IsEnum`,
 * Swagger's `enum:` and TypeORM's `enum:` read it exactly as they read an enum.
 */
export type StringEnum<V extends string> = { readonly [K in V]: K };

/** The union of a string enum's values. */
export type EnumValue<E> = E[keyof E];

export function stringEnum<const V extends string>(...values: V[]): StringEnum<V> {
  return Object.freeze(Object.fromEntries(values.map((value) => [value, value]))) as StringEnum<V>;
}
