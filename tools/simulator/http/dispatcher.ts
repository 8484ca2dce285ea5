import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from './apiError.ts';
import { API_KEY_HEADER } from './auth.ts';
import type { Authenticator, Client } from './auth.ts';
import type { DriftInjector } from './drift.ts';
import type { FaultInjector, FaultPlan } from './faults.ts';
import { bodyBytes, parsedItem, recycleWriters, serializeBody } from './jsonText.ts';
import { TokenPageHelper, TruthPageHelper, WalkCache } from './pageHelpers.ts';
import { bindingOf } from './pageToken.ts';
import type { PageTokenCodec } from './pageToken.ts';
import type { RateLimiter } from './rateLimit.ts';
import type { RequestContext, RouteDef, Service } from './route.ts';
import type { Router } from './router.ts';
import type { StatsRecorder } from './stats.ts';
import type { World } from '../world/world.ts';

export interface DispatcherDeps {
  router: Router;
  world: World;
  codec: PageTokenCodec;
  auth: Authenticator;
  limiter: RateLimiter | null;
  faults: FaultInjector;
  stats: StatsRecorder;
  clock: () => number;
  /** Schema drift from a chosen step on (absent: none). */
  drift?: DriftInjector;
}

/** Admin hooks served on the data listener without a key (tests, demo). */
export type AdminHandler = (method: string, path: string, query: URLSearchParams, body: unknown) => Promise<unknown> | unknown;

const MAX_BODY = 1 << 20;

/**
 * Turns one HTTP request into one response: route, body, auth, CU charge, faults, handler, JSON.
 * Order matters: auth before charging (unknown keys cost nothing), charging before faults (a
 * failed request still costs CU, as on the public service).
 */
export class Dispatcher {
  private readonly walks = new WalkCache();

  constructor(private readonly deps: DispatcherDeps, private readonly admin: AdminHandler) {}

  async handle(service: Service, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const queryString = q < 0 ? '' : rawUrl.slice(q + 1);
    const query = new URLSearchParams(queryString);
    let status = 200;
    let cu = 0;
    let headers: Record<string, string> = {};
    try {
      if (service === 'data' && path.startsWith('/admin/')) {
        const body = method === 'POST' ? await readJson(req) : undefined;
        this.send(res, 200, await this.admin(method, path, query, body), {}, undefined);
        return; // admin requests stay out of the stats
      }
      const match = this.deps.router.match(service, method, path);
      if (!match) throw new ApiError(404, `Cannot ${method} ${path}`);
      const { route, params } = match;
      const body = method === 'POST' ? await readJson(req) : undefined;
      const client = this.client(service, req);
      if (this.deps.limiter) {
        headers = this.deps.limiter.charge(client.id, service === 'metrics' ? 'metrics' : client.tier, route.weight);
      }
      cu = route.weight;
      const pageToken = query.get('pageToken');
      const plan = this.deps.faults.plan(client.id, !!route.list && !!pageToken);
      if (plan.delayMs) await sleep(plan.delayMs);
      if (plan.error) throw plan.error;
      const binding = bindingOf(method, route.path, params, query, body);
      const ctx: RequestContext = {
        params,
        query,
        body,
        world: this.deps.world,
        nowSec: Math.floor(this.deps.clock() / 1000),
        page: new TokenPageHelper(this.deps.codec, binding, pageToken || null, plan.shortLimit, this.walks, this.deps.world.steps),
      };
      // List handlers answer synchronously: no await (and no microtask hop) unless it is a promise.
      const out = route.handler(ctx);
      const handled: unknown = out instanceof Promise ? await out : out;
      const result = this.deps.drift ? this.deps.drift.apply(route, params, handled) : handled;
      this.send(res, 200, result, headers, plan);
    } catch (err) {
      const apiError = err instanceof ApiError ? err : internal(err);
      status = apiError.status;
      this.send(res, status, apiError.body(), { ...headers, ...apiError.headers }, undefined);
    } finally {
      this.deps.stats.record({ method, path, query: queryString, status, cu });
    }
  }

  /** All items a list endpoint returns for these filters, across all pages, in its order. */
  async groundTruth(method: 'GET' | 'POST', path: string, query: Record<string, string> = {}, body?: unknown): Promise<unknown[]> {
    const service: Service = path.startsWith('/v2/') ? 'metrics' : 'data';
    const match = this.deps.router.match(service, method, path) ?? this.deps.router.match(service === 'data' ? 'metrics' : 'data', method, path);
    if (!match) throw new ApiError(404, `Cannot ${method} ${path}`);
    const route: RouteDef = match.route;
    const ctx: RequestContext = {
      params: match.params,
      query: new URLSearchParams(query),
      body,
      world: this.deps.world,
      nowSec: Math.floor(this.deps.clock() / 1000),
      page: new TruthPageHelper(),
    };
    const handled: unknown = await route.handler(ctx);
    const result = (this.deps.drift ? this.deps.drift.apply(route, match.params, handled) : handled) as Record<string, unknown>;
    if (!route.list) return [result];
    return (result[route.list.itemsKey] as unknown[]).map(parsedItem);
  }

  private client(service: Service, req: IncomingMessage): Client {
    const ip = req.socket.remoteAddress ?? 'unknown';
    // The holder-metrics service lists no authentication header: every caller is keyless.
    if (service === 'metrics') return { id: `ip:${ip}`, tier: 'none', keyed: false };
    return this.deps.auth.identify(req.headers[API_KEY_HEADER], ip);
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>, plan: FaultPlan | undefined): void {
    if (!plan?.reset && !plan?.truncate) {
      // The usual case: the body is built into one Buffer from its parts (list items are never
      // joined into one string), and its length is the Buffer's. Page writers are reused once the
      // socket has the bytes; a connection that dies first just leaves them to the GC.
      const { buf, writers } = bodyBytes(body);
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(buf.length);
      res.writeHead(status, headers);
      if (writers.length === 0) res.end(buf);
      else res.end(buf, () => recycleWriters(writers));
      return;
    }
    const json = serializeBody(body);
    if (plan.reset) {
      // Headers and part of the body go out, then the connection dies mid-response.
      res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      res.write(json.slice(0, Math.floor(json.length / 2)), () => res.destroy());
      return;
    }
    // A complete HTTP response whose JSON is cut in half: chunked, so the framing is valid.
    res.writeHead(status, { ...headers, 'content-type': 'application/json' });
    res.end(json.slice(0, Math.floor(json.length / 2)));
  }
}

function internal(err: unknown): ApiError {
  console.error('simulator: unhandled error', err);
  return new ApiError(500, 'Internal server error');
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req) {
    total += (chunk as Buffer).length;
    if (total > MAX_BODY) throw badRequest('Request body too large');
    chunks.push(chunk as Buffer);
  }
  if (total === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
