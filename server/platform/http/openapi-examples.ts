/**
 * Examples for every operation of the API document: a request-body example and a response example per media type,
 * composed from the schemas (a field's own `example` first, then its default, its first enum value, and values that
 * satisfy its format, pattern and bounds). An operation that states its own example keeps it. Redocly's
 * `no-invalid-media-type-examples` checks every result against its schema (`test/unit/api-document.test.ts`).
 */

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  example?: unknown;
  default?: unknown;
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
};

interface MediaType {
  schema?: Schema;
  example?: unknown;
  examples?: unknown;
}

interface Document {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, MediaType> }; responses?: Record<string, { content?: Record<string, MediaType> }> }>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Values tried, in order, for a string with a `pattern` (the first that matches wins). */
const PATTERN_CANDIDATES = [
  '5f1c9a3e-8b2d-4c7a-9e41-2d6b7f0a1c93',
  '22222222222',
  '0123456789',
  '058',
  '123456',
  '1990-05-17',
  '+2348031234567',
  'partner_ref_1042',
  'checkout.lender.example',
];

const FORMATS: Record<string, string> = {
  'date-time': '2026-03-02T09:30:00.000Z',
  date: '2026-03-02',
  uuid: '5f1c9a3e-8b2d-4c7a-9e41-2d6b7f0a1c93',
  uri: 'https://partner.example/path',
  url: 'https://partner.example/path',
  email: 'ada.obi@example.com',
};

/** By property name, for strings without a format or pattern. */
function byName(name: string): string | undefined {
  const key = name.toLowerCase();
  if (key.endsWith('email')) return 'ada.obi@example.com';
  if (key.endsWith('url')) return 'https://partner.example/path';
  if (key.includes('phone')) return '+2348031234567';
  if (key === 'firstname') return 'Ada';
  if (key === 'lastname') return 'Obi';
  if (key.includes('name')) return 'Ada Obi';
  if (key === 'currency') return 'NGN';
  if (key === 'message') return 'OK';
  if (key === 'reason') return 'Requested by the borrower.';
  return undefined;
}

function fitLength(value: string, schema: Schema): string {
  let out = value;
  if (schema.maxLength !== undefined && out.length > schema.maxLength) out = out.slice(0, schema.maxLength);
  if (schema.minLength !== undefined && out.length < schema.minLength) out = out.padEnd(schema.minLength, 'x');
  return out;
}

function stringExample(schema: Schema, name: string): string {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format]!;
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    const fits = (value: string) => pattern.test(value) && (schema.maxLength ?? Infinity) >= value.length && (schema.minLength ?? 0) <= value.length;
    const named = byName(name);
    const found = [named, ...PATTERN_CANDIDATES].find((value) => value !== undefined && fits(value));
    if (found) return found;
  }
  return fitLength(byName(name) ?? 'string', schema);
}

function numberExample(schema: Schema, name: string): number {
  const integer = schema.type === 'integer';
  let value = /kobo$/i.test(name) ? 5_000_000 : /bps$/i.test(name) ? 250 : /days$/i.test(name) ? 90 : integer ? 1 : 1.5;
  const step = schema.multipleOf ?? (integer ? 1 : undefined);
  if (schema.minimum !== undefined && (value < schema.minimum || (schema.exclusiveMinimum && value === schema.minimum))) {
    value = schema.minimum + (schema.exclusiveMinimum ? (step ?? 1) : 0);
  }
  if (schema.maximum !== undefined && (value > schema.maximum || (schema.exclusiveMaximum && value === schema.maximum))) {
    value = schema.maximum - (schema.exclusiveMaximum ? (step ?? 1) : 0);
  }
  if (step) value = Math.round(value / step) * step;
  return value;
}

export function exampleFor(schema: Schema | undefined, document: Document, options: { request: boolean }, name = '', seen: string[] = []): unknown {
  if (!schema) return undefined;
  if (schema.$ref) {
    const ref = schema.$ref.replace('#/components/schemas/', '');
    if (seen.includes(ref)) return undefined;
    return exampleFor(document.components?.schemas?.[ref], document, options, name, [...seen, ref]);
  }
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.allOf?.length) {
    const parts = schema.allOf.map((part) => exampleFor(part, document, options, name, seen));
    return parts.every((part) => part !== null && typeof part === 'object' && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0];
  }
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices?.length) return exampleFor(choices.find((choice) => !(choice.nullable && !choice.type)) ?? choices[0], document, options, name, seen);
  switch (schema.type ?? (schema.properties ? 'object' : undefined)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(schema.required ?? []);
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        // A request example shows what must be sent, plus the optional fields that state their own example.
        if (options.request && !required.has(key) && resolve(property, document).example === undefined) continue;
        const value = exampleFor(property, document, options, key, seen);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array': {
      const item = exampleFor(schema.items, document, options, name, seen);
      return item === undefined ? [] : Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => item);
    }
    case 'string':
      return stringExample(schema, name);
    case 'integer':
    case 'number':
      return numberExample(schema, name);
    case 'boolean':
      return true;
    default:
      return schema.nullable ? null : undefined;
  }
}

function resolve(schema: Schema, document: Document): Schema {
  return schema.$ref ? (document.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] ?? schema) : schema;
}

function fill(media: MediaType | undefined, document: Document, request: boolean, mediaType: string): void {
  if (!media || media.example !== undefined || media.examples !== undefined) return;
  if (mediaType === 'text/csv') {
    media.example = 'id,status,createdAt\n5f1c9a3e-8b2d-4c7a-9e41-2d6b7f0a1c93,active,2026-03-02T09:30:00.000Z\n';
    return;
  }
  const example = exampleFor(media.schema, document, { request });
  if (example !== undefined) media.example = example;
}

/** Adds an example to every request body and response of `document` that has none (in place). */
export function addOperationExamples(document: Document): void {
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) fill(media, document, true, type);
      for (const response of Object.values(operation.responses ?? {})) {
        for (const [type, media] of Object.entries(response.content ?? {})) fill(media, document, false, type);
      }
    }
  }
}
