import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivities, type Activities, type ActivityDeps } from '../../activities/index.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../tools/simulator/index.ts';
import { configForWorld } from '../../cli/demoConfig.ts';
import { resolveConfig, type PipelineConfig, type ResolvedConfig } from '../../worker/config.ts';
import { buildRuntime, type Runtime } from '../../worker/runtime.ts';
import { pipelineWorkflow, type PipelineInput, type PipelineStatus } from '../../workflows/pipeline.ts';
import { partitionWorkflowId } from '../../workflows/workflowIds.ts';
import { startTestWorker, type TestWorker } from './testWorker.ts';
import { capturedLogger } from './silentLogger.ts';

/** The whole product in one process: simulator over HTTP, real worker runtime (DuckDB file), real Temporal. */
export interface PipelineHarness {
  sim: Simulator;
  config: ResolvedConfig;
  runtime: Runtime;
  tw: TestWorker;
  logs: () => string;
  run(input: Partial<PipelineInput> & Pick<PipelineInput, 'mode'>, workflowId?: string): Promise<PipelineStatus>;
  close(): Promise<void>;
}

export const FIXED_NOW = Date.UTC(2026, 10, 1, 12, 0, 0);

export async function startPipelineHarness(options: {
  sim?: SimulatorOptions;
  edit?: (config: PipelineConfig) => void;
  env?: NodeJS.ProcessEnv;
  /** Fault injection: the worker's activities built from these deps (a sync port that fails one partition...). */
  deps?: (deps: ActivityDeps) => ActivityDeps;
  /** Fault injection: the worker runs these activities (an activity that fails its first attempt...). */
  activities?: (activities: Activities) => Activities;
} = {}): Promise<PipelineHarness> {
  // A frozen clock keeps validator statuses and reward progress fixed between the sync and the truth.
  const sim = await startSimulator({ seed: 11, size: 'tiny', clock: () => FIXED_NOW, ...options.sim });
  const dataDir = mkdtempSync(join(tmpdir(), 'glacier-pipeline-'));
  const base = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir, addressesPerChain: 2 });
  base.api.pageSize = 50;
  options.edit?.(base);
  const config = resolveConfig(base, { GLACIER_DATA_DIR: dataDir });
  const captured = capturedLogger('info');
  const runtime = await buildRuntime(config, captured.logger, options.env ?? {});
  const activities = createActivities(options.deps ? options.deps(runtime.deps) : runtime.deps);
  const tw = await startTestWorker({ activities: options.activities ? options.activities(activities) : activities, prefix: 'pipeline' });
  let runs = 0;
  return {
    sim,
    config,
    runtime,
    tw,
    logs: captured.lines,
    run: (input, workflowId) =>
      tw.run(() =>
        tw.client.workflow.execute(pipelineWorkflow, {
          taskQueue: tw.taskQueue,
          workflowId: workflowId ?? `pipeline-${input.mode}-${++runs}-${tw.taskQueue}`,
          args: [{ partitionConcurrency: 4, maxPagesPerBatch: 5, exportParquet: false, streams: config.streams, ...input }],
        }),
      ),
    async close() {
      await tw.close();
      await runtime.close();
      await sim.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { partitionWorkflowId };
