import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { installQuietRuntime } from '../../worker/createWorker.ts';
import { ensureWorkflowBundle } from '../../worker/workflowBundle.ts';
import * as workflows from '../../workflows/index.ts';

/**
 * Every committed history (test/histories/<release>/*.binpb.gz, recorded by
 * scripts/recordHistories.ts from that release's workflow code on a real dev server) is replayed
 * against the current workflow code, from the same bundle the worker runs. A change to workflows/
 * that alters the commands an in-flight run issues fails here with Temporal's non-determinism
 * error: guard it with patched() or make it a new workflow type (CONTRIBUTING.md).
 */
const HISTORIES = fileURLToPath(new URL('../histories/', import.meta.url));

interface Recorded {
  release: string;
  file: string;
  workflowId: string;
  workflowType: string;
  history: proto.temporal.api.history.v1.History;
}

function loadHistories(): Recorded[] {
  const out: Recorded[] = [];
  for (const release of readdirSync(HISTORIES).sort()) {
    const dir = join(HISTORIES, release);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { histories: { file: string; workflowId: string; workflowType: string }[] };
    for (const entry of manifest.histories) {
      const history = proto.temporal.api.history.v1.History.decode(gunzipSync(readFileSync(join(dir, entry.file))));
      out.push({ release, ...entry, history });
    }
  }
  return out;
}

describe('recorded workflow histories replay against the current workflow code', () => {
  const recorded = loadHistories();

  it('cover every workflow type the worker registers', () => {
    const registered = Object.entries(workflows)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name)
      .sort();
    const covered = new Set(recorded.map((r) => r.workflowType));
    expect(registered.filter((name) => !covered.has(name)), 'workflow types without a recorded history (npm run record-histories)').toEqual([]);
  });

  it('replay without a non-determinism error', async () => {
    installQuietRuntime();
    const codePath = await ensureWorkflowBundle();
    const failures: string[] = [];
    let replayed = 0;
    // workflowInfo().taskQueue is the replay worker's queue, and the workflows derive child ids from
    // it (workflows/workflowIds.ts): one replay worker per recorded task queue, named as it.
    const byQueue = new Map<string, Recorded[]>();
    for (const r of recorded) {
      const queue = r.history.events?.[0]?.workflowExecutionStartedEventAttributes?.taskQueue?.name ?? 'default';
      byQueue.set(queue, [...(byQueue.get(queue) ?? []), r]);
    }
    for (const [taskQueue, group] of byQueue) {
      const options = { workflowBundle: { codePath }, replayName: 'recorded-histories', taskQueue } as Parameters<typeof Worker.runReplayHistories>[0];
      // Histories replay one at a time, results in order (several runs of one workflow id share it).
      let i = 0;
      for await (const result of Worker.runReplayHistories(options, group.map((r) => ({ workflowId: r.workflowId, history: r.history })))) {
        const r = group[i++];
        replayed += 1;
        if (result.error) failures.push(`${r.release}/${r.file} (${r.workflowType}): ${result.error.name}: ${result.error.message.replace(/^[^[]*/, '').split(/\\?"/)[0]}`);
      }
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(recorded.length);
  });
});
