import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { demoSummaryLine } from '../demoSummary.ts';
import { parseInAction } from '../parsers.ts';
import type { SimulatorModule, WorldSizeName } from '../simulatorLoader.ts';

/** A world size by name (the sizes are the simulator's, so this runs in the action, once it is loaded). */
export function parseDemoSize(value: string, sizes: SimulatorModule['WORLD_SIZES']): WorldSizeName {
  if (!(value in sizes)) throw new InvalidArgumentError(`expected one of ${Object.keys(sizes).join(', ')}`);
  return value as WorldSizeName;
}

/**
 * The whole product on one machine: the simulator, the embedded Temporal dev server and a worker;
 * backfills every stream of a mainnet-like world into ./data, exports the lake, verifies.
 */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('backfill every stream from the built-in simulator into ./data, export the lake, verify')
    .option('--size <size>', 'simulated world size: tiny, small (default, about half a minute), mainnet-like (about two minutes on 2 cores)', 'small')
    .option('--seed <n>', 'world seed', (v: string) => Number.parseInt(v, 10), 1)
    .option('--data-dir <dir>', 'where the warehouse, the lake and Temporal state go', './data')
    .option('--keep-running', 'keep the simulator, Temporal and its UI up after the summary (Ctrl-C to stop)')
    .action(async (opts: { size: string; seed: number; dataDir: string; keepRunning?: boolean }, command: Command) => {
      const started = Date.now();
      // The simulator first: where it is not installed (the worker image) the demo stops here, in one line.
      const simulator = await (await import('../simulatorLoader.ts')).loadSimulator();
      const size = parseInAction(command, 'size', opts.size, (text) => parseDemoSize(text, simulator.WORLD_SIZES));
      const dataDir = resolve(opts.dataDir);
      // The dev server next: its start-up (about 1.1 s) overlaps loading the rest and building the world.
      const [{ DevServer }, { temporalStateDir }] = await Promise.all([import('../../worker/devServer.ts'), import('../../worker/paths.ts')]);
      const launched = new DevServer({ dataDir: temporalStateDir(dataDir) }).launch();
      launched.catch(() => undefined); // a failed launch is reported where the session awaits it
      let adopted = false;
      const release = () => (adopted ? undefined : launched.then((server) => server.kill(), () => undefined));
      // Loaded here, not at the top: only `demo` and `simulator` pay for the simulator (and the
      // demo for Temporal, DuckDB and the sync core); `--help` and the other commands start fast.
      const [{ stringify: toYaml }, { resolveConfig }, { configForWorld, DEMO_RATE_LIMITS }, { withSession }, { runOnWorker }, { followPipeline, startPipeline, summarize }, { reportWorkflow, verifyWorkflow }, { writeReport }] =
        await Promise.all([
          import('yaml'),
          import('../../worker/config.ts'),
          import('../demoConfig.ts'),
          import('../session.ts'),
          import('../runOnWorker.ts'),
          import('../runPipeline.ts'),
          import('../../workflows/maintenance.ts'),
          import('../report/writeReport.ts'),
        ]).catch(async (error: unknown) => {
          await release();
          throw error;
        });
      const sim = await simulator.startSimulator({ seed: opts.seed, size, rateLimits: DEMO_RATE_LIMITS }).catch(async (error: unknown) => {
        await release();
        throw error;
      });
      try {
        mkdirSync(dataDir, { recursive: true });
        const pipelineConfig = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir });
        writeFileSync(join(dataDir, 'demo-config.yaml'), toYaml(pipelineConfig));
        // The demo talks to its own simulator and its own embedded Temporal, whatever the shell says.
        const config = resolveConfig(pipelineConfig, { GLACIER_DATA_DIR: dataDir });
        process.stdout.write(`simulator: ${sim.baseUrl} (metrics ${sim.metricsUrl}), world ${size} seed ${opts.seed}\n`);
        adopted = true; // the session owns the server from here, and stops it on every path
        await withSession(config, async (session) => {
          process.stdout.write(`temporal UI: ${session.uiUrl}\n`);
          const handle = await startPipeline(session, {
            mode: 'backfill',
            streams: config.streams,
            partitionConcurrency: config.partitionConcurrency,
            maxPagesPerBatch: 20,
            exportParquet: true,
          });
          const status = await followPipeline(session, handle);
          const summary = summarize(status);
          const findings = await runOnWorker(session, verifyWorkflow, 'glacier-verify-demo', [{}]);
          const problems = findings.filter((f) => !f.ok);
          const reportPath = join(dataDir, 'report.html');
          writeReport({ ...(await runOnWorker(session, reportWorkflow, 'glacier-report-demo', [])), verifyFindings: findings }, reportPath);
          const elapsed = Date.now() - started;
          // The server was launched before the session: its first launch may have installed the Temporal CLI (once per machine).
          const setup = (await launched).installed;
          process.stdout.write(
            [
              '',
              demoSummaryLine(summary, elapsed, setup),
              `warehouse: ${join(dataDir, 'warehouse.duckdb')}`,
              `lake:      ${join(dataDir, 'lake', 'catalog.sqlite')} (DuckLake, ${status.exported?.files ?? 0} files written; docs/schema.md, Reading the lake)`,
              `verify:    ${problems.length ? `${problems.length} problem(s)` : `no problems (${findings.length} checks)`}`,
              ...problems.map((p) => `  FAIL ${p.check}: ${p.detail}`),
              ...status.partitions.filter((p) => p.state === 'failed').map((p) => `  failed ${p.partitionId}: ${p.error}`),
              `temporal UI: ${session.uiUrl}${opts.keepRunning ? '' : ' (stops with the demo; use --keep-running to browse it)'}`,
              `try: npx glacier-etl --config ${join(opts.dataDir, "demo-config.yaml")} sql --file sql/examples/daily_transactions.sql`,
              `report:    ${reportPath} (open it in a browser; works offline)`,
              '',
            ].join('\n'),
          );
          if (problems.length || summary.failed) process.exitCode = 1;
          if (opts.keepRunning) {
            await new Promise<void>((resolve) => process.once('SIGINT', resolve));
          }
        }, { launched });
      } finally {
        await release();
        await sim.close();
      }
    });
}
