type Schema = Record<string, unknown>;

/** Nullable properties per class (own properties only; the prototype chain is walked when reading). */
const nullables = new WeakMap<object, Set<string>>();

/**
 * Marks a property whose type includes `null`: the OpenAPI document then declares it nullable
 * (`type: [..., 'null']`, or `oneOf: [{ $ref }, { type: 'null' }]` for a nested view). It only documents:
 * put the usual class-validator decorator for the non-null type beside it, and `@IsOptional()` only when the
 * property may also be absent (`name?:`).
 *
 *   @Nullable() @IsDateString() closedAt!: string | null;
 *
 * TypeScript refuses it on a property that cannot be null, and the lint rule `contract/nullable-views`
 * (eslint.config.mjs) refuses a `| null` property of a view without it, so the document cannot drift
 * from the view's type.
 */
export function Nullable() {
  return <T extends object, K extends keyof T & string>(target: T, key: null extends T[K] ? K : never): void => {
    const own = nullables.get(target.constructor) ?? new Set<string>();
    nullables.set(target.constructor, own.add(key));
  };
}

/** The nullable properties of a class, inherited ones included. */
export function nullableProperties(target: object): Set<string> {
  const all = new Set<string>();
  for (let c: object | null = target; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const key of nullables.get(c) ?? []) all.add(key);
  }
  return all;
}

/** The schema that also accepts null. */
export function orNull(schema: Schema): Schema {
  const { type, enum: values, description, ...rest } = schema;
  const described = description === undefined ? {} : { description };
  if (typeof type === 'string' || Array.isArray(type)) {
    return {
      ...rest,
      ...described,
      type: [...new Set([...([] as unknown[]).concat(type), 'null'])],
      ...(Array.isArray(values) ? { enum: values.includes(null) ? values : [...values, null] } : {}),
    };
  }
  return { ...described, oneOf: [{ ...rest, ...(values ? { enum: values } : {}) }, { type: 'null' }] };
}
