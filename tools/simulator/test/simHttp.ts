/**
 * Small HTTP helpers for simulator tests: real requests over loopback with global fetch. Bodies are
 * parsed losslessly (integers above 2^53 as their digits), as ground truth hands them out.
 */

export interface JsonResponse {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, unknown>;
}

/** A JSON string literal, or a number literal. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * JSON.parse that reads integer literals beyond ±(2^53-1) as their decimal text, as a lossless client
 * does (exactJsonValue is the simulator's side of that contract). The simulator's tests keep their
 * own reader: the simulator is a unit of its own and imports nothing of the product.
 */
export function parseExact(text: string): unknown {
  return JSON.parse(text.replace(TOKEN, (token) => (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token)) ? `"${token}"` : token)));
}

export async function getJson(url: string, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = parseExact(text) as Record<string, unknown>;
  } catch {
    // Left empty: truncated-body faults produce invalid JSON on purpose.
  }
  return { status: res.status, headers: res.headers, text, body };
}

export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
}

/** Follows nextPageToken to the end; returns the items and the pages (each page's raw body). */
export async function walk(
  base: string,
  path: string,
  itemsKey: string,
  query: Record<string, string | number> = {},
  headers: Record<string, string> = {},
  startToken?: string,
): Promise<{ items: unknown[]; pages: Record<string, unknown>[] }> {
  const items: unknown[] = [];
  const pages: Record<string, unknown>[] = [];
  let token: string | undefined = startToken;
  for (let i = 0; i < 100_000; i++) {
    const res = await getJson(base + withQuery(path, { ...query, pageToken: token }), headers);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${res.text}`);
    pages.push(res.body);
    items.push(...(res.body[itemsKey] as unknown[]));
    token = res.body.nextPageToken as string | undefined;
    if (token === undefined) return { items, pages };
  }
  throw new Error('walk did not end');
}
