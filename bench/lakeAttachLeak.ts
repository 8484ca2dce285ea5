/**
 * What one attach of the lake leaves in the process (bench/README.md, "Nights: what grows a night"):
 * on a kept world, `--cycles` times, one of:
 *   - (default) the DuckLake attached on the warehouse's DuckDB instance, four tables read, detached:
 *     what each night's export does once;
 *   - `--kept`: the lake attached once and only read;
 *   - `--catalog duckdb`: the same as the default on a copy of the lake with a DuckDB-file catalog
 *     (built once from the warehouse under `<dir>/lake-duckdb-catalog/`);
 *   - `--sqlite-only`: the SQLite catalog file attached with `TYPE sqlite` alone, its catalog tables read.
 * `--write` adds a commit to each cycle (a row into a probe table of the lake, then the export's
 * clearTableBounds), as a night's export commits; `--memory-limit` sets the warehouse's buffer limit
 * (default: the product's), which also bounds DuckDB's object cache (`OBJECT_CACHE` in duckdb_memory(),
 * where DuckLake keeps each attach's catalog and stats entries, printed beside the heap).
 * Prints the process's RSS and the glibc heap's resident MB (with MALLOC_ARENA_MAX=1 every thread
 * allocates from the main arena, `[heap]` in /proc/self/smaps; DuckDB's own buffers are jemalloc's,
 * elsewhere) every 25 cycles.
 *
 *   npm run bench:nights -- --skip-nights --skip-idle --scaling 100 --scaling-nights 1 --checks none --keep
 *   MALLOC_ARENA_MAX=1 npx tsx bench/lakeAttachLeak.ts --dir data/bench-nights/scale-100x/data [--kept | --catalog duckdb | --sqlite-only] [--cycles 200]
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exportLake } from '../activities/lake/export.ts';
import { loadExtensions } from '../activities/warehouse/extensions.ts';
import { attachLake } from '../activities/lake/lake.ts';
import { type LakeSettings } from '../activities/lake/settings.ts';
import { clearTableBounds } from '../activities/lake/tableBounds.ts';
import { allTables } from '../activities/streams/catalog.ts';
import { openWarehouse } from '../activities/warehouse/warehouse.ts';

const options = { dir: { type: 'string' }, kept: { type: 'boolean', default: false }, catalog: { type: 'string', default: 'sqlite' }, 'sqlite-only': { type: 'boolean', default: false }, cycles: { type: 'string', default: '200' }, write: { type: 'boolean', default: false }, 'memory-limit': { type: 'string' } } as const;
const { values } = parseArgs({ options });
if (!values.dir || !['sqlite', 'duckdb'].includes(values.catalog)) {
  console.error("usage: MALLOC_ARENA_MAX=1 npx tsx bench/lakeAttachLeak.ts --dir <a kept bench:nights world's data dir> [--kept | --catalog duckdb | --sqlite-only] [--write] [--memory-limit 40MB] [--cycles 200]");
  process.exit(2);
}
const dir = resolve(values.dir);
const copy = `${dir}/lake-duckdb-catalog`;
const lake: LakeSettings =
  values.catalog === 'duckdb'
    ? { format: 'ducklake', catalog: `duckdb:${copy}/catalog.duckdb`, dataPath: `${copy}/data/`, snapshotDays: 1 }
    : { format: 'ducklake', catalog: `sqlite:${dir}/lake/catalog.sqlite`, dataPath: `${dir}/lake/data/`, snapshotDays: 1 };
const warehouse = await openWarehouse(`${dir}/warehouse.duckdb`, { threads: 1, ...(values['memory-limit'] ? { memoryLimit: values['memory-limit'] } : {}) });
if (values.catalog === 'duckdb' && !existsSync(copy)) {
  const built = await exportLake(warehouse, allTables(), lake, { full: true, maintenance: false });
  console.log(`built ${copy}: ${built.inserted} rows in ${built.files} files`);
}
const conn = await warehouse.connect();

/** Resident MB of the process and of its glibc main-arena heap. */
function resident(): { rss: number; heap: number } {
  const smaps = readFileSync('/proc/self/smaps', 'utf8');
  const heap = /\[heap\]\n(?:.*\n)*?Rss:\s+(\d+) kB/.exec(smaps);
  return { rss: Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024), heap: heap ? Math.round(Number(heap[1]) / 1024) : NaN };
}

const label = values['sqlite-only'] ? 'SQLite catalog alone' : values.kept ? 'kept' : `attached each cycle (${values.catalog} catalog)`;
/** One cycle's statements. */
async function cycle(): Promise<void> {
  if (values['sqlite-only']) {
    await conn.run(`ATTACH '${dir}/lake/catalog.sqlite' AS s (TYPE sqlite, READ_ONLY)`);
    for (const t of ['ducklake_data_file', 'ducklake_file_column_stats', 'ducklake_column', 'ducklake_table_column_stats', 'ducklake_snapshot', 'ducklake_delete_file']) await conn.run(`SELECT count(*), max(length(CAST(COLUMNS(*) AS VARCHAR))) FROM s.${t}`);
    await conn.run('DETACH s');
    return;
  }
  if (!values.kept) await attachLake(conn, lake, { alias: 'glacier_lake' });
  for (const table of ['pn_transaction_utxos', 'pn_transactions', 'evm_transactions', 'pn_utxos']) await conn.run(`SELECT count(*), sum(_glacier_hash) FROM glacier_lake.main.${table}`);
  if (values.write) {
    await conn.run('INSERT INTO glacier_lake.main._glacier_leak_probe VALUES (1)');
    await clearTableBounds(conn, 'glacier_lake');
  }
  if (!values.kept) await conn.run('DETACH glacier_lake');
}

if (values['sqlite-only']) await loadExtensions(conn, ['sqlite_scanner']);
if (values.kept || values.write) await attachLake(conn, lake, { alias: 'glacier_lake' });
if (values.write) await conn.run('CREATE TABLE IF NOT EXISTS glacier_lake.main._glacier_leak_probe (x INTEGER)');
if (values.write && !values.kept) await conn.run('DETACH glacier_lake');
const start = resident();
for (let n = 1; n <= Number(values.cycles); n++) {
  await cycle();
  if (n % 25 === 0) {
    const now = resident();
    const [cache] = (await conn.runAndReadAll("SELECT coalesce(sum(memory_usage_bytes), 0) // 1048576 AS mb FROM duckdb_memory() WHERE tag = 'OBJECT_CACHE'")).getRowObjectsJS();
    console.log(`${label}${values.write ? ', a commit each' : ''} ${String(n).padStart(4)}: RSS ${now.rss} MB, glibc heap ${now.heap} MB (${((now.heap - start.heap) / n).toFixed(2)} MB a cycle since the start), DuckDB object cache ${cache.mb} MB`);
  }
}
conn.closeSync();
await warehouse.close();
