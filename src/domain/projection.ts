/**
 * The fields a view shows of a record, in the order the wire shows them. The same object is the mask the view's
 * schema is picked with (zod's `pick` keeps the mask's order), so a schema and its projection cannot drift apart.
 */
export type Fields<F extends PropertyKey> = { readonly [K in F]: true };

/** Each mask's keys, listed once: walking them is cheaper on the read path than a `for…in` over the mask each time. */
const keysByMask = new WeakMap<object, readonly PropertyKey[]>();

function keysOf<F extends PropertyKey>(fields: Fields<F>): readonly F[] {
  let keys = keysByMask.get(fields);
  if (keys === undefined) {
    keys = Object.keys(fields);
    keysByMask.set(fields, keys);
  }
  return keys as readonly F[];
}

/**
 * The record's `fields`, in their order, then `extra`'s: the view of a record that shows some of its fields as they
 * are kept, and what it adds. The additions are given here rather than spread around the result: on the read path
 * an object spread costs many times the copy itself.
 */
export function project<R extends object, F extends keyof R, E extends object = Record<never, never>>(
  record: R,
  fields: Fields<F>,
  extra?: E,
): Pick<R, F> & E {
  const view = {} as Pick<R, F> & E;
  for (const key of keysOf(fields)) (view as Pick<R, F>)[key] = record[key];
  if (extra !== undefined) Object.assign(view, extra);
  return view;
}
