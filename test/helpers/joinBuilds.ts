import type { DuckDBConnection } from '@duckdb/node-api';

/** A node of DuckDB's `EXPLAIN (FORMAT JSON)` plan. */
interface PlanNode {
  name: string;
  children?: PlanNode[];
  extra_info?: Record<string, unknown>;
}

/** Operators that hold their right-hand input whole (a hash table, a materialized side). */
const BUILDERS = new Set(['HASH_JOIN', 'NESTED_LOOP_JOIN', 'PIECEWISE_MERGE_JOIN', 'CROSS_PRODUCT', 'IE_JOIN', 'DELIM_JOIN', 'LEFT_DELIM_JOIN', 'RIGHT_DELIM_JOIN']);

/**
 * The stored (not temporary) tables whose every row would feed a join's build side in `sql`: a
 * scan of the table reached from the build side through operators that pass rows on (projections,
 * filters without the join's keys...) rather than through another join that narrows them first. A
 * build over a stored table grows with the history (a commit's memory must be bounded by its batch);
 * a scan on a probe side streams.
 */
export async function wholeTableBuilds(connection: DuckDBConnection, sql: string): Promise<string[]> {
  const reader = await connection.runAndReadAll(`EXPLAIN (FORMAT JSON) ${sql}`);
  const plans = JSON.parse(String(reader.getRows()[0][1])) as PlanNode[];
  const found = new Set<string>();
  const scansOf = (node: PlanNode): string[] => {
    // A join below narrows (or is itself checked): its inputs are not this build's whole table.
    if (BUILDERS.has(node.name)) return [];
    if (node.name === 'SEQ_SCAN' || node.name === 'TABLE_SCAN') {
      const table = String(node.extra_info?.Table ?? '');
      return table && !table.startsWith('"temp"') && !table.startsWith('temp.') ? [table] : [];
    }
    return (node.children ?? []).flatMap(scansOf);
  };
  const walk = (node: PlanNode): void => {
    const children = node.children ?? [];
    if (BUILDERS.has(node.name) && children.length === 2) for (const table of scansOf(children[1])) found.add(table);
    children.forEach(walk);
  };
  plans.forEach(walk);
  return [...found];
}
