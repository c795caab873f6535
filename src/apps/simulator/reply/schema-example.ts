// A tool input that satisfies a tool's input_schema well enough for clients to parse and use:
// strings "example", numbers 1, booleans true, every property present (required ones included).
import { isRecord } from '../../../lib/is-record.js';

type Schema = Record<string, unknown>;


function firstType(schema: Schema): string | undefined {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null');
  return undefined;
}

const MAX_DEPTH = 8;

function exampleValue(schema: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > MAX_DEPTH) return 'example';
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) return exampleValue(options[0], depth + 1);
  }
  switch (firstType(schema)) {
    case 'string':
      return 'example';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return [exampleValue(schema.items, depth + 1)];
    case 'object':
      return exampleObject(schema, depth + 1);
    default:
      return isRecord(schema.properties) ? exampleObject(schema, depth + 1) : 'example';
  }
}

function exampleObject(schema: Schema, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const props = isRecord(schema.properties) ? schema.properties : {};
  for (const [name, sub] of Object.entries(props)) out[name] = exampleValue(sub, depth);
  // A required field the properties do not describe still has to be present.
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) if (typeof name === 'string' && !(name in out)) out[name] = 'example';
  }
  return out;
}

export function exampleInput(inputSchema: unknown): Record<string, unknown> {
  return isRecord(inputSchema) ? exampleObject(inputSchema, 0) : {};
}
