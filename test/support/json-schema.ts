/** A schema of an OpenAPI document, its `$ref`s pointed at the document added to ajv under `base`. */
export function rebased(schema: unknown, base: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rebased(item, base));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#')
        ? `${base}${value}`
        : rebased(value, base),
    ]),
  );
}
