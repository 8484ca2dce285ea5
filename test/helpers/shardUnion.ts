import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/**
 * The union of several shards' warehouse files, read-only, as one database: each base table is a
 * view of UNION ALL over the shards that have it. What the lake holds, before Parquet, so tests can
 * compare it with ground truth row for row (a key stored on two shards shows as a duplicate).
 */
export interface ShardUnion {
  connect(): Promise<DuckDBConnection>;
  /** Rows per base table, over all shards. */
  counts(): Promise<Map<string, number>>;
  close(): void;
}

export async function openShardUnion(files: Record<string, string>): Promise<ShardUnion> {
  const instance = await DuckDBInstance.create(':memory:');
  const setup = await instance.connect();
  const tables = new Map<string, string[]>();
  for (const [shard, file] of Object.entries(files)) {
    const alias = `shard_${shard.replace(/[^a-z0-9]/g, '_')}`;
    await setup.run(`ATTACH '${file.replaceAll("'", "''")}' AS ${alias} (READ_ONLY)`);
    const rows = (await setup.runAndReadAll(`SELECT table_name FROM duckdb_tables() WHERE database_name = '${alias}' AND schema_name = 'main'`)).getRowObjectsJS();
    for (const r of rows) tables.set(String(r.table_name), [...(tables.get(String(r.table_name)) ?? []), alias]);
  }
  for (const [table, aliases] of tables) {
    await setup.run(`CREATE VIEW main."${table}" AS ${aliases.map((a) => `SELECT * FROM ${a}.main."${table}"`).join(' UNION ALL BY NAME ')}`);
  }
  return {
    connect: () => instance.connect(),
    async counts() {
      const out = new Map<string, number>();
      for (const table of tables.keys()) {
        const [row] = (await setup.runAndReadAll(`SELECT count(*) AS n FROM main."${table}"`)).getRowObjectsJS();
        out.set(table, Number(row.n));
      }
      return out;
    },
    close() {
      setup.closeSync();
      instance.closeSync();
    },
  };
}
