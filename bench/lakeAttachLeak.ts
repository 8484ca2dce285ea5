/**
 * What one attach of the lake leaves in the process (bench/README.md, "Nights: what grows a night"):
 * on a kept world, `--cycles` times: the DuckLake attached on the warehouse's DuckDB instance, four
 * tables read, detached (what each night's export does once) — or, with `--kept`, the lake attached
 * once and only read. Prints the process's RSS and the glibc heap's resident MB (with MALLOC_ARENA_MAX=1
 * every thread allocates from the main arena, `[heap]` in /proc/self/smaps; DuckDB's own buffers are
 * jemalloc's, elsewhere) every 25 cycles.
 *
 *   npm run bench:nights -- --skip-nights --skip-idle --scaling 100 --scaling-nights 1 --checks none --keep
 *   MALLOC_ARENA_MAX=1 npx tsx bench/lakeAttachLeak.ts --dir data/bench-nights/scale-100x/data [--kept] [--cycles 200]
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { attachLake, type LakeSettings } from '../activities/lake/lake.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';

const { values } = parseArgs({ options: { dir: { type: 'string' }, kept: { type: 'boolean', default: false }, cycles: { type: 'string', default: '200' } } });
if (!values.dir) {
  console.error("usage: MALLOC_ARENA_MAX=1 npx tsx bench/lakeAttachLeak.ts --dir <a kept bench:nights world's data dir> [--kept] [--cycles 200]");
  process.exit(2);
}
const dir = resolve(values.dir);
const lake: LakeSettings = { format: 'ducklake', catalog: `sqlite:${dir}/lake/catalog.sqlite`, dataPath: `${dir}/lake/data/`, snapshotDays: 1 };
const warehouse = await openWarehouse(`${dir}/warehouse.duckdb`, { threads: 1 });
const conn = await warehouse.connect();

/** Resident MB of the process and of its glibc main-arena heap. */
function resident(): { rss: number; heap: number } {
  const smaps = readFileSync('/proc/self/smaps', 'utf8');
  const heap = /\[heap\]\n(?:.*\n)*?Rss:\s+(\d+) kB/.exec(smaps);
  return { rss: Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024), heap: heap ? Math.round(Number(heap[1]) / 1024) : NaN };
}

const start = resident();
if (values.kept) await attachLake(conn, lake, { alias: 'glacier_lake' });
for (let cycle = 1; cycle <= Number(values.cycles); cycle++) {
  if (!values.kept) await attachLake(conn, lake, { alias: 'glacier_lake' });
  for (const table of ['pn_transaction_utxos', 'pn_transactions', 'evm_transactions', 'pn_utxos']) await conn.run(`SELECT count(*), sum(_glacier_hash) FROM glacier_lake.main.${table}`);
  if (!values.kept) await conn.run('DETACH glacier_lake');
  if (cycle % 25 === 0) {
    const now = resident();
    console.log(`${values.kept ? 'kept' : 'attached each cycle'} ${String(cycle).padStart(4)}: RSS ${now.rss} MB, glibc heap ${now.heap} MB (${((now.heap - start.heap) / cycle).toFixed(2)} MB a cycle since the start)`);
  }
}
conn.closeSync();
await warehouse.close();
