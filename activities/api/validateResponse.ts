import type { z } from 'zod';
import { ResponseValidationError, type RequestLabel } from './errors.ts';

/** Formats a zod issue path as `blocks[3].blockHash` ((root) when empty). */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(root)';
}

/** Parses a decoded body with its schema; a wrong shape becomes a ResponseValidationError naming the path, the expected and the received type. */
export function validateResponse<S extends z.ZodType>(schema: S, body: unknown, request: RequestLabel): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more issues)` : '';
  const value = valueAt(body, issue.path);
  const expected = expectedAt(schema, issue.path);
  const types = expected === undefined || value === undefined ? undefined : { expected, received: jsonType(value), sample: sampleText(value) };
  const detail = types && types.expected !== types.received ? `expected ${types.expected}, received ${types.received} ${types.sample ?? ''}`.trim() : issue.message;
  throw new ResponseValidationError(request, formatIssuePath(issue.path), `${detail}${more}`, types);
}

/** The JSON type of a value: string, number, boolean, null, array, object. */
export function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

const sampleText = (value: unknown): string | null => {
  const text = JSON.stringify(value);
  return text === undefined ? null : text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = body;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; element?: z.ZodType; options?: z.ZodType[]; in?: z.ZodType };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The JSON types a schema accepts, through optional/nullable/pipes and unions: `number`, `string or number`. */
function accepted(schema: z.ZodType, out = new Set<string>(), depth = 0): Set<string> {
  if (depth > 10) return out;
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return accepted(def.innerType!, out, depth + 1);
  if (def.type === 'pipe') return accepted(def.in!, out, depth + 1);
  if (def.type === 'union') {
    for (const o of def.options ?? []) accepted(o, out, depth + 1);
    return out;
  }
  const checked = def.type === 'string' && ((def as { checks?: unknown[] }).checks?.length ?? 0) > 0;
  out.add(checked ? 'numeric string' : def.type === 'enum' || def.type === 'literal' ? 'string' : def.type);
  return out;
}

/** What the schema expects at an issue's path (undefined when the path cannot be followed). */
function expectedAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  let at: z.ZodType | undefined = schema;
  for (const key of path) {
    at = childSchema(at, key);
    if (!at) return undefined;
  }
  return [...accepted(at)].join(' or ');
}

function childSchema(schema: z.ZodType, key: PropertyKey, depth = 0): z.ZodType | undefined {
  if (depth > 10) return undefined;
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return childSchema(def.innerType!, key, depth + 1);
  if (def.type === 'pipe') return childSchema(def.in!, key, depth + 1);
  if (def.type === 'object') return def.shape?.[String(key)];
  if (def.type === 'array') return def.element;
  if (def.type === 'union') for (const o of def.options ?? []) { const c = childSchema(o, key, depth + 1); if (c) return c; }
  return undefined;
}
