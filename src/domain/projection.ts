/**
 * The fields a view shows of a record, in the order the wire shows them. The same object is the mask the view's
 * schema is picked with (zod's `pick` keeps the mask's order), so a schema and its projection cannot drift apart.
 */
export type Fields<F extends PropertyKey> = { readonly [K in F]: true };

/** The record's `fields`, in their order: the view of a record that shows some of its fields as they are kept. */
export function project<R extends object, F extends keyof R>(record: R, fields: Fields<F>): Pick<R, F> {
  const view = {} as Pick<R, F>;
  for (const key in fields) view[key] = record[key];
  return view;
}
