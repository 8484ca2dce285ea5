import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError } from './http/apiError.ts';
import { Authenticator } from './http/auth.ts';
import type { ApiKey, Tier } from './http/auth.ts';
import { Dispatcher } from './http/dispatcher.ts';
import { DriftInjector, type DriftOptions } from './http/drift.ts';
import { FaultInjector } from './http/faults.ts';
import type { FaultKind } from './http/faults.ts';
import { PageTokenCodec } from './http/pageToken.ts';
import { RateLimiter } from './http/rateLimit.ts';
import type { Budget } from './http/rateLimit.ts';
import type { Service } from './http/route.ts';
import { Router } from './http/router.ts';
import { StatsRecorder } from './http/stats.ts';
import type { SimulatorStats } from './http/stats.ts';
import { MODULES } from './modules.ts';
import type { SimulatorModule } from './modules.ts';
import { resolveSize } from './world/size.ts';
import type { WorldSize, WorldSizeName } from './world/size.ts';
import { World } from './world/world.ts';

export interface SimulatorOptions {
  seed?: number;
  size?: WorldSizeName | Partial<WorldSize>;
  /** Data API port (default: a free port). */
  port?: number;
  /** Holder-metrics port (default: a free port). */
  metricsPort?: number;
  host?: string;
  keys?: ApiKey[];
  /** CU rate limits: off by default in the library (the CLI turns them on). */
  rateLimits?: boolean | { budgets?: Partial<Record<Tier, Budget>>; metricsBudget?: Budget; windowMs?: number; dayMs?: number };
  /** Page token lifetime (default 24 h). */
  tokenTtlMs?: number;
  faults?: Partial<Record<FaultKind, number>>;
  faultSeed?: number;
  /** Schema drift from a chosen world step on (tools/simulator/http/drift.ts); absent: none. */
  drift?: DriftOptions;
  /** Time-based growth in world steps per second (one EVM block per chain per step). */
  growth?: { stepsPerSecond: number };
  /** Milliseconds since epoch; tokens and rate-limit windows use it (tests inject one). */
  clock?: () => number;
  /** Extra modules (tests); the built-in ones are always present. */
  modules?: SimulatorModule[];
}

export interface Simulator {
  baseUrl: string;
  metricsUrl: string;
  world: World;
  advance(steps: number): void;
  setFaults(f: Partial<Record<FaultKind, number>>): void;
  /** Switches schema drift on (from a step) or off. */
  setDrift(d: DriftOptions | undefined): void;
  groundTruth(method: 'GET' | 'POST', path: string, query?: Record<string, string>, body?: unknown): Promise<unknown[]>;
  stats(): SimulatorStats;
  resetStats(): void;
  close(): Promise<void>;
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const clock = opts.clock ?? Date.now;
  const seed = opts.seed ?? 1;
  const world = new World(seed, resolveSize(opts.size));
  const router = new Router();
  for (const mod of [...MODULES, ...(opts.modules ?? [])]) {
    mod.attach?.(world);
    for (const route of mod.routes()) router.add(route);
  }
  const rl = opts.rateLimits;
  const limiter = rl ? new RateLimiter(rl === true ? {} : rl, clock) : null;
  const faults = new FaultInjector(opts.faults, opts.faultSeed ?? seed);
  const stats = new StatsRecorder();
  const drift = new DriftInjector(seed, opts.drift, () => world.steps);
  const dispatcher = new Dispatcher(
    {
      router,
      world,
      codec: new PageTokenCodec(seed, opts.tokenTtlMs ?? 86_400_000, clock),
      auth: new Authenticator(opts.keys),
      limiter,
      faults,
      stats,
      clock,
      drift,
    },
    (method, path, query, body) => admin(method, path, query, body),
  );

  const sim: Simulator = {
    baseUrl: '',
    metricsUrl: '',
    world,
    advance: (steps) => world.advance(steps),
    setFaults: (f) => faults.set(f),
    setDrift: (d) => drift.set(d),
    groundTruth: (method, path, query, body) => dispatcher.groundTruth(method, path, query, body),
    stats: () => stats.snapshot(faults.injected),
    resetStats: () => {
      stats.reset();
      faults.resetCounts();
    },
    close: async () => {
      if (timer) clearInterval(timer);
      await Promise.all([closeServer(data), closeServer(metrics)]);
    },
  };

  async function admin(method: string, path: string, query: URLSearchParams, body: unknown): Promise<unknown> {
    if (method === 'GET' && path === '/admin/truth') {
      const m = query.get('method') === 'POST' ? 'POST' : 'GET';
      const target = query.get('path');
      if (!target) throw new ApiError(400, 'path is required');
      const q = Object.fromEntries(new URLSearchParams(query.get('query') ?? ''));
      const b = query.get('body');
      return { items: await sim.groundTruth(m, target, q, b ? (JSON.parse(b) as unknown) : undefined) };
    }
    if (method === 'POST' && path === '/admin/advance') {
      // {steps: n}, or {days: n} on a world with day-scale clocks (size.stepsPerDay): n days of activity.
      const { steps, days } = (body ?? {}) as { steps?: unknown; days?: unknown };
      if (days !== undefined) {
        if (typeof days !== 'number' || !Number.isInteger(days) || days < 0) throw new ApiError(400, 'days must be a non-negative integer');
        if (world.size.stepsPerDay === undefined) throw new ApiError(400, 'days needs a world with size.stepsPerDay (day-scale clocks); advance by steps instead');
        world.advance(days * world.size.stepsPerDay);
        return { steps: world.steps };
      }
      if (typeof steps !== 'number' || !Number.isInteger(steps) || steps < 0) throw new ApiError(400, 'steps must be a non-negative integer');
      world.advance(steps);
      return { steps: world.steps };
    }
    if (method === 'POST' && path === '/admin/drift') {
      const d = body as { fromStep?: unknown; typeChanges?: unknown } | null | undefined;
      if (d === null || d === undefined || d.fromStep === null) {
        drift.set(undefined);
        return { drift: null };
      }
      if (typeof d.fromStep !== 'number' || !Number.isInteger(d.fromStep) || d.fromStep < 0) throw new ApiError(400, 'fromStep must be a non-negative integer (or null: no drift)');
      drift.set({ fromStep: d.fromStep, typeChanges: d.typeChanges !== false });
      return { drift: { fromStep: d.fromStep, typeChanges: d.typeChanges !== false } };
    }
    if (method === 'GET' && path === '/admin/stats') {
      // ?log=0: the counters only (a benchmark reading them between phases needs no request log).
      const stats = sim.stats();
      return query.get('log') === '0' ? { ...stats, log: [] } : stats;
    }
    if (method === 'GET' && path === '/admin/describe') return world.describe();
    throw new ApiError(404, `Cannot ${method} ${path}`);
  }

  const host = opts.host ?? '127.0.0.1';
  const data = await listen('data', opts.port ?? 0, host, dispatcher);
  const metrics = await listen('metrics', opts.metricsPort ?? 0, host, dispatcher);
  sim.baseUrl = `http://${host}:${(data.address() as AddressInfo).port}`;
  sim.metricsUrl = `http://${host}:${(metrics.address() as AddressInfo).port}`;

  let timer: NodeJS.Timeout | undefined;
  if (opts.growth && opts.growth.stepsPerSecond > 0) {
    // Fractional rates accumulate, so 0.5 steps/s adds a block every two seconds.
    const tickMs = 250;
    let carry = 0;
    timer = setInterval(() => {
      carry += (opts.growth!.stepsPerSecond * tickMs) / 1000;
      const whole = Math.floor(carry);
      carry -= whole;
      if (whole > 0) world.advance(whole);
    }, tickMs);
    timer.unref();
  }
  return sim;
}

async function listen(service: Service, port: number, host: string, dispatcher: Dispatcher): Promise<Server> {
  const server = createServer({ keepAlive: true }, (req, res) => {
    void dispatcher.handle(service, req, res);
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
