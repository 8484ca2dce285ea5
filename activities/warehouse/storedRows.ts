/**
 * The stored rows of `table` (alias `t`) that `stage` (alias `s`) matches on `match`, found by the
 * matched columns alone and then fetched by row id. A join of the stage with the table that needs
 * another column of the stored rows (a value compared, a spend read) made DuckDB read that column of
 * every stored row: a scan skips a column only where the join's own filter on the key columns left
 * no row, and random hashes leave one in nearly every vector. So a commit's CPU followed the
 * history's length times its width; found by the key first, it follows the key columns' length
 * (bench/README.md, "The night's growth, profiled"). Row ids hold within the statement (its
 * transaction), and the build sides hold the batch's matches only (test/warehouse/commitPlans.test.ts).
 */
export function storedRowsSql(table: string, stage: string, match: string): string {
  return `(SELECT t.* FROM ${table} AS t JOIN (SELECT t.rowid AS rid FROM ${table} AS t SEMI JOIN ${stage} AS s ON ${match}) AS r ON t.rowid = r.rid)`;
}
