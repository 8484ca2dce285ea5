import type { z } from 'zod';
import { ResponseValidationError, type RequestLabel } from './errors.ts';

/** Formats a zod issue path as `blocks[3].blockHash` ((root) when empty). */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(root)';
}

/** Parses a decoded body with its schema; a wrong shape becomes a ResponseValidationError naming the path. */
export function validateResponse<S extends z.ZodType>(schema: S, body: unknown, request: RequestLabel): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more issues)` : '';
  throw new ResponseValidationError(request, formatIssuePath(issue.path), `${issue.message}${more}`);
}
