import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from './apiError.ts';

/**
 * Opaque page tokens: base64url(JSON {s: cursor state, t: issued-at ms}) + "." + a truncated
 * HMAC over the payload and the request's binding (route + path params + filters). A tampered
 * token, or one reused on another route or with other filters, fails the MAC -> 400.
 */
export class PageTokenCodec {
  private readonly key: Buffer;

  constructor(seed: number, private readonly ttlMs: number, private readonly clock: () => number) {
    this.key = createHmac('sha256', 'glacier-sim-page-token').update(String(seed)).digest();
  }

  encode(state: unknown, binding: string): string {
    const payload = Buffer.from(JSON.stringify({ s: state, t: this.clock() })).toString('base64url');
    return `${payload}.${this.mac(payload, binding)}`;
  }

  decode(token: string, binding: string): unknown {
    const dot = token.indexOf('.');
    if (dot <= 0) throw badRequest('Invalid page token');
    const payload = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(payload, binding), 'base64url');
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw badRequest('Invalid page token');
    let parsed: { s: unknown; t: number };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s: unknown; t: number };
    } catch {
      throw badRequest('Invalid page token');
    }
    if (this.clock() - parsed.t > this.ttlMs) throw badRequest('Page token expired');
    return parsed.s;
  }

  private mac(payload: string, binding: string): string {
    return createHmac('sha256', this.key).update(binding).update('\n').update(payload).digest().subarray(0, 16).toString('base64url');
  }
}

/** Binding of a request: method, route pattern, path params and every query param except paging. */
export function bindingOf(method: string, routePath: string, params: Record<string, string>, query: URLSearchParams, body: unknown): string {
  const q = [...query.entries()].filter(([k]) => k !== 'pageToken' && k !== 'pageSize').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const p = Object.keys(params).sort().map((k) => [k, params[k]]);
  return JSON.stringify([method, routePath, p, q, body ?? null]);
}
