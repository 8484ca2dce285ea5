import { ActivityFailure, TimeoutFailure, condition, proxyActivities, sleep } from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { Activities } from '../activities/index.ts';
import type { ShardHoldings } from '../activities/shards/shardLedger.ts';
import type { PartitionSpec } from '../activities/sync/types.ts';
import { placementGroup, shardTaskQueue } from '../common/shards.ts';
import { holdersOf, spreadGroups } from './shardAssignment.ts';

/**
 * Activities on one shard's task queue. With `startTimeout`, one attempt that fails with a
 * SCHEDULE_TO_START timeout when no worker of that shard takes it in time (the shard is down);
 * without, they wait for the shard however long it is down, and retry like other activities.
 */
export function shardActivities(taskQueue: string, shard: string, startTimeout?: string) {
  return proxyActivities<Activities>({
    taskQueue: shardTaskQueue(taskQueue, shard),
    startToCloseTimeout: '30 minutes',
    heartbeatTimeout: '2 minutes',
    ...(startTimeout ? { scheduleToStartTimeout: startTimeout, retry: { maximumAttempts: 1 } } : { retry: { maximumInterval: '1 minute' } }),
  });
}

/** True when an activity failed because no worker took it within its start timeout. */
export function isStartTimeout(error: unknown): boolean {
  return error instanceof ActivityFailure && error.cause instanceof TimeoutFailure && error.cause.timeoutType === TimeoutType.SCHEDULE_TO_START;
}

/** What the pipeline knows of one shard (its `status` query shows it). */
export interface ShardView {
  shard: string;
  /** asking: no answer yet; up: answered what it holds; no answer: its queue had no worker in time (asked again every 10 s). */
  state: 'asking' | 'up' | 'no answer';
  /** Placement groups it holds (checkpoints and claims) when it answered. */
  groups?: number;
  /** Partitions this run gave it. */
  partitions: number;
  /** Why the last question failed, when it was not simply unanswered. */
  error?: string;
}

/** Where a partition goes: a shard, or why it cannot go anywhere yet. */
export type Route = { shard: string } | { conflict: string };

/** Asking a shard what it holds: an answer within 15 s means it is up; none means it is down for now. */
const ASK_TIMEOUT = '15 seconds';
const ASK_AGAIN_AFTER = '10 seconds';

/**
 * The sharded pipeline's router (workflow side, deterministic). Every shard is asked what it holds
 * (its checkpoints and claims, durable in its own warehouse). A partition whose placement group a
 * shard holds goes back to that shard, up or not: a down shard's partitions wait in its task queue
 * until it returns. A group nobody holds is new, but only once every shard has answered (a shard
 * that has not answered may hold it); new groups are spread over the shards and claimed on their
 * shard before anything of them runs, so the assignment is durable before any data is.
 */
export class ShardRouter {
  readonly views: ShardView[];
  private readonly answers = new Map<string, ShardHoldings>();
  /** Placement group -> shard, decided in this run (held or claimed). */
  private readonly assignment = new Map<string, string>();
  private readonly asked: Promise<ShardHoldings>[];

  constructor(
    private readonly shards: string[],
    private readonly taskQueue: string,
    private readonly runId: string,
  ) {
    this.views = shards.map((shard) => ({ shard, state: 'asking', partitions: 0 }));
    this.asked = this.views.map((view) => this.ask(view));
  }

  /** Activities on one shard's queue. Without a start timeout they wait for the shard, however long it is down. */
  activitiesOn(shard: string, options: { startTimeout?: string } = {}) {
    return shardActivities(this.taskQueue, shard, options.startTimeout);
  }

  shardQueue(shard: string): string {
    return shardTaskQueue(this.taskQueue, shard);
  }

  private async ask(view: ShardView): Promise<ShardHoldings> {
    for (;;) {
      try {
        const holdings = await this.activitiesOn(view.shard, { startTimeout: ASK_TIMEOUT }).shardHoldings();
        this.answers.set(view.shard, holdings);
        view.state = 'up';
        view.error = undefined;
        view.groups = holdings.groups.length;
        return holdings;
      } catch (error) {
        // No worker took it in time (down), or it failed: either way, ask again shortly.
        if (!isStartTimeout(error)) view.error = error instanceof Error ? error.message : String(error);
        view.state = 'no answer';
        await sleep(ASK_AGAIN_AFTER);
      }
    }
  }

  /** The first shard to answer (planning runs there). */
  firstUp(): Promise<string> {
    return Promise.race(this.asked.map((p) => p.then((h) => h.shard)));
  }

  /** Shards that answered, or were given work in this run (their exports and discoveries are needed). */
  involved(): string[] {
    const used = new Set(this.assignment.values());
    return this.shards.filter((s) => this.answers.has(s) || used.has(s));
  }

  /** Shards holding or given a group of these kinds (e.g. 'pn/': where validators are stored). */
  holdersOfKind(prefix: string): string[] {
    const out = new Set<string>();
    for (const [group, shard] of this.assignment) if (group.startsWith(prefix)) out.add(shard);
    for (const h of this.answers.values()) if (h.groups.some((g) => g.startsWith(prefix))) out.add(h.shard);
    return this.shards.filter((s) => out.has(s));
  }

  /**
   * Routes a wave's partitions: `onRoute` is called for each as soon as its shard is known (held
   * groups as their holder answers, new groups once every shard has answered and the claim is
   * committed on the chosen shard). Returns when every partition is routed.
   */
  async route(specs: PartitionSpec[], onRoute: (spec: PartitionSpec, route: Route) => void): Promise<void> {
    const byGroup = new Map<string, PartitionSpec[]>();
    for (const spec of specs) {
      const group = placementGroup(spec.id, spec.stream);
      byGroup.set(group, [...(byGroup.get(group) ?? []), spec]);
    }
    const deliver = (group: string, route: Route) => {
      const list = byGroup.get(group) ?? [];
      if ('shard' in route) {
        this.assignment.set(group, route.shard);
        const view = this.views.find((v) => v.shard === route.shard);
        if (view) view.partitions += list.length;
      }
      for (const spec of list) onRoute(spec, route);
      byGroup.delete(group);
    };
    for (;;) {
      for (const group of [...byGroup.keys()]) {
        const known = this.assignment.get(group);
        const holders = known ? [known] : holdersOf(group, this.answers.values());
        if (holders.length === 1) deliver(group, { shard: holders[0] });
        else if (holders.length > 1) deliver(group, { conflict: `placement group ${group} is held by shards ${holders.join(' and ')}; one of them must release it (see docs/operations.md, Shards)` });
      }
      if (byGroup.size === 0) return;
      if (this.answers.size === this.shards.length) break;
      const answered = this.answers.size;
      await condition(() => this.answers.size > answered);
    }
    // Every shard answered and none holds these groups: they are new.
    const load = new Map(this.views.map((v) => [v.shard, v.partitions]));
    const chosen = spreadGroups([...byGroup].map(([group, list]) => ({ group, partitions: list.length })), this.shards, load);
    const perShard = new Map<string, string[]>();
    for (const [group, shard] of chosen) perShard.set(shard, [...(perShard.get(shard) ?? []), group]);
    await Promise.all(
      [...perShard].map(async ([shard, groups]) => {
        // Once sent, the claim may commit even if the shard dies now: these groups are that shard's.
        await this.activitiesOn(shard).claimPlacementGroups({ groups, runId: this.runId });
        for (const group of groups) deliver(group, { shard });
      }),
    );
  }
}
