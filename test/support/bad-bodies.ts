import type { z } from 'zod';

type Json = Record<string, unknown>;

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      format?: string;
      innerType?: ZodInternals;
      shape?: Record<string, ZodInternals>;
      catchall?: ZodInternals;
      checks?: Array<{ _zod: { def: { check: string; maximum?: number } } }>;
    };
  };
  options?: unknown[];
}

function unwrap(schema: ZodInternals): ZodInternals {
  let s = schema;
  while (['optional', 'nullable', 'default', 'prefault'].includes(s._zod.def.type) && s._zod.def.innerType) s = s._zod.def.innerType;
  return s;
}

function wrongType(schema: ZodInternals): unknown {
  switch (unwrap(schema)._zod.def.type) {
    case 'string':
    case 'enum':
      return 12345;
    case 'number':
    case 'int':
      return 'not-a-number';
    case 'boolean':
      return 'yes';
    case 'object':
    case 'record':
      return 'not-an-object';
    case 'array':
      return { not: 'an array' };
    default:
      return Symbol.for('skip');
  }
}

/**
 * Derives bad variants of a valid body from the route's own zod schema, recursively: each field
 * with the wrong type, strings one past their maximum, enums with an unknown value, UUIDs that
 * are not UUIDs, required fields missing and (for strict objects) an unknown field.
 */
export function badBodies(schema: z.ZodType, valid: Json, prefix = ''): Array<{ name: string; body: Json }> {
  const s = unwrap(schema as unknown as ZodInternals);
  const shape = s._zod.def.shape;
  if (!shape) return [];
  const out: Array<{ name: string; body: Json }> = [];
  const strict = s._zod.def.catchall?._zod.def.type === 'never';
  if (strict) out.push({ name: `${prefix}unknown field`, body: { ...valid, unexpectedField: 1 } });
  for (const [key, field] of Object.entries(shape)) {
    const inner = unwrap(field);
    const optional = field._zod.def.type === 'optional' || field._zod.def.type === 'default';
    const label = `${prefix}${key}`;
    const wrong = wrongType(field);
    if (wrong !== Symbol.for('skip')) out.push({ name: `${label} of the wrong type`, body: { ...valid, [key]: wrong } });
    if (!optional && field._zod.def.type !== 'nullable') {
      const { [key]: _omitted, ...rest } = valid;
      out.push({ name: `${label} missing`, body: rest });
    }
    const max = inner._zod.def.checks?.find((c) => c._zod.def.check === 'max_length')?._zod.def.maximum;
    if (inner._zod.def.type === 'string' && typeof max === 'number') {
      out.push({ name: `${label} longer than ${max}`, body: { ...valid, [key]: 'x'.repeat(max + 1) } });
    }
    if (inner._zod.def.type === 'string' && inner._zod.def.format === 'uuid') {
      out.push({ name: `${label} not a UUID`, body: { ...valid, [key]: 'not-a-uuid' } });
    }
    if (inner._zod.def.type === 'enum') out.push({ name: `${label} not a known value`, body: { ...valid, [key]: 'no_such_value' } });
    if (inner._zod.def.type === 'object' && valid[key] && typeof valid[key] === 'object') {
      for (const nested of badBodies(inner as unknown as z.ZodType, valid[key] as Json, `${label}.`)) {
        out.push({ name: nested.name, body: { ...valid, [key]: nested.body } });
      }
    }
  }
  return out;
}
