/**
 * Writes test/fixtures/warehouse-0.1.0.duckdb.gz: a warehouse written by the previous release's own
 * CLI (built from its commit in CHANGELOG.md, in a temporary worktree), so
 * test/warehouse/schemaVersion.test.ts opens a file an earlier build really wrote. It backfills a
 * tiny simulated world (two streams) through that release's embedded dev server and worker, and
 * records the row counts beside the file (warehouse-0.1.0.json).
 *
 * Usage: tsx scripts/makeWarehouseFixture.ts [--release-dir <built tree>]   (npm run make-warehouse-fixture)
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { stringify as toYaml } from 'yaml';
import { DuckDBInstance } from '@duckdb/node-api';
import { configForWorld } from '../cli/demoConfig.ts';
import { startSimulator } from '../tools/simulator/index.ts';
import { buildPreviousRelease, previousRelease, REPO } from '../test/upgrade/previousRelease.ts';
import { runNode } from '../test/helpers/runCli.ts';

const FIXED_NOW = Date.UTC(2026, 10, 1, 12, 0, 0);
const STREAMS = ['evm.blocks', 'pn.validators'];

const at = process.argv.indexOf('--release-dir');
const given = at > 0 ? process.argv[at + 1] : undefined;
const release = given ? { ...previousRelease(), dir: given, bin: join(given, 'bin', 'glacier-etl.js'), remove: () => undefined } : buildPreviousRelease((l) => process.stderr.write(`${l}\n`));
const sim = await startSimulator({ seed: 11, size: 'tiny', clock: () => FIXED_NOW });
const work = mkdtempSync(join(tmpdir(), 'glacier-fixture-'));
try {
  const config = configForWorld(sim.world.describe(), { baseUrl: sim.baseUrl, metricsUrl: sim.metricsUrl, dataDir: join(work, 'data'), addressesPerChain: 1 });
  config.streams = STREAMS;
  writeFileSync(join(work, 'config.yaml'), toYaml(config));
  const run = await runNode([release.bin, '-c', join(work, 'config.yaml'), 'backfill', '--json'], { env: { CI: 'true', TEMPORAL_ADDRESS: '' }, timeoutMs: 300_000 });
  if (run.code !== 0) throw new Error(`release ${release.version} backfill failed (exit ${run.code}): ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  const file = join(work, 'data', 'warehouse.duckdb');
  const copy = join(work, 'copy.duckdb');
  copyFileSync(file, copy);
  const instance = await DuckDBInstance.create(copy, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const tables = (await connection.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' ORDER BY table_name")).getRowObjectsJS().map((r) => String(r.table_name));
  const rows: Record<string, number> = {};
  for (const t of tables) rows[t] = Number((await connection.runAndReadAll(`SELECT count(*) AS n FROM "${t}"`)).getRowObjectsJS()[0].n);
  connection.closeSync();
  instance.closeSync();
  const out = join(REPO, 'test', 'fixtures');
  writeFileSync(join(out, `warehouse-${release.version}.duckdb.gz`), gzipSync(readFileSync(file), { level: 9 }));
  writeFileSync(
    join(out, `warehouse-${release.version}.json`),
    `${JSON.stringify({ writtenBy: release.version, commit: release.commit, streams: STREAMS, world: { seed: 11, size: 'tiny' }, madeBy: 'scripts/makeWarehouseFixture.ts', rows }, null, 2)}\n`,
  );
  process.stderr.write(`fixture: ${tables.length} tables, ${Object.values(rows).reduce((a, b) => a + b, 0)} rows\n`);
} finally {
  await sim.close();
  rmSync(work, { recursive: true, force: true });
  release.remove();
}
