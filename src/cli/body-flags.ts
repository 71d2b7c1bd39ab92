// The flags of a command that sends a body, read from the contract's schema of that body: which flag fills which
// field, and how its text reads (a number as a whole number, a boolean as given or not), so a command restates
// neither the fields nor their types.
import * as z from 'zod';
import { type Options, UsageError, type Values, wholeNumber } from './command.js';

/** How one flag fills its field. */
export interface Flag<Field extends string = string> {
  /** The field it fills; by default the flag's name in camelCase (`--bank-code`: `bankCode`). */
  field?: Field;
  /** How a line of bad usage names it (`--account N`); by default the flag alone. */
  name?: string;
  /** A number's least and most, as the command checks them (by default 0 and none: the sandbox checks the rest). */
  min?: number;
  max?: number;
  /** A flag of no value that sets its field to this (`--refund-mispaid`: `mispaid: "refund"`). */
  sets?: string;
  /** Blank text counts as missing. */
  noBlank?: true;
}

/** `bank-code` → `bankCode`, in types: the field a flag fills unless its `field` says otherwise. */
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

type FieldOf<S extends z.ZodObject> = keyof S['shape'] & string;

/** Each flag fills a field of the body: its own name's, or the one it names. */
type Flags<S extends z.ZodObject, F> = {
  [K in keyof F & string]: Camel<K> extends FieldOf<S>
    ? Flag<FieldOf<S>>
    : Flag<FieldOf<S>> & { field: FieldOf<S> };
};

/** The body read from the flags: a field the schema requires is there, an optional one only where its flag is. */
export type Body<S extends z.ZodObject> = {
  [K in keyof z.input<S>]: K extends keyof z.output<S> ? z.output<S>[K] : never;
};

type Kind = 'number' | 'boolean' | 'text';

/** How one flag is read into its field. */
interface Reader {
  flag: string;
  field: string;
  kind: Kind;
  read(values: Values): unknown;
}

/** How a field's flag reads, from what the field holds under its optional, default and pipe wrappers. */
function kindOf(schema: z.core.$ZodType): Kind {
  if (schema instanceof z.ZodNumber) return 'number';
  if (schema instanceof z.ZodBoolean) return 'boolean';
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return kindOf(schema.unwrap());
  if (schema instanceof z.ZodPipe) return kindOf(schema.in);
  // An amount is a number or its digits: a number it is.
  if (schema instanceof z.ZodUnion)
    return schema.options.some((o) => kindOf(o) === 'number') ? 'number' : 'text';
  return 'text';
}

/** A text flag that must be given: bad usage naming it otherwise (blank counts as missing with `noBlank`). */
export function requiredText(
  values: Values,
  flag: string,
  { name = `--${flag}`, noBlank }: Pick<Flag, 'name' | 'noBlank'> = {},
): string {
  const value = values[flag];
  if (typeof value !== 'string' || (noBlank && value.trim() === ''))
    throw new UsageError(`${name} is required`);
  return value;
}

/**
 * The flags of a body of `schema` (or of the schema a contract builds on first use): the options to parse (a boolean
 * field's flag, or one that `sets` a value, takes no value) and `read`, which makes the body of the parsed flags, in
 * the flags' order, or throws bad usage naming the first flag it cannot read.
 */
export function bodyFlags<S extends z.ZodObject, const F extends Record<string, Flag>>(
  schema: S | (() => S),
  flags: F & Flags<S, F>,
): { options: Options; read(values: Values): Body<S> } {
  // Read from the schema on first use, not when the command table loads: `serve` builds none of it.
  let made: Reader[] | undefined;
  const readers = (): Reader[] => {
    if (made !== undefined) return made;
    const { shape } = typeof schema === 'function' ? schema() : schema;
    made = Object.entries<Flag>(flags).map(([flag, spec]) => {
      const field = spec.field ?? flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      const fieldSchema = shape[field];
      if (!fieldSchema) throw new Error(`--${flag}: the body has no field ${field}`);
      const kind: Kind = spec.sets === undefined ? kindOf(fieldSchema) : 'boolean';
      const required = !fieldSchema.safeParse(undefined).success;
      const name = spec.name ?? `--${flag}`;
      const read = (values: Values): unknown => {
        const value = values[flag];
        if (kind === 'boolean') return value === true ? (spec.sets ?? true) : undefined;
        if (kind === 'number')
          return value === undefined && !required ? undefined : wholeNumber(value, name, spec.min, spec.max);
        return required ? requiredText(values, flag, spec) : value;
      };
      return { flag, field, kind, read };
    });
    return made;
  };
  let options: Options | undefined;
  return {
    get options() {
      options ??= Object.fromEntries(
        readers().map(
          ({ flag, kind }) => [flag, { type: kind === 'boolean' ? 'boolean' : 'string' }] as const,
        ),
      );
      return options;
    },
    read(values) {
      const body: Record<string, unknown> = {};
      for (const { field, read } of readers()) {
        const value = read(values);
        if (value !== undefined) body[field] = value;
      }
      // Every field the schema requires was read above, or bad usage thrown.
      return body as Body<S>;
    },
  };
}
