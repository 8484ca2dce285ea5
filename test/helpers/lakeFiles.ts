import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATIONS_DIR } from '../../activities/warehouse/lakeGenerations.ts';
import type { TableDef } from '../../activities/warehouse/tableDef.ts';

/** Every file of a lake as a reader sees it: through each table's link, without the generations behind them (absolute paths). */
export function lakeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.name !== GENERATIONS_DIR)
    .flatMap((e) => (e.isDirectory() || e.isSymbolicLink() ? lakeFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

/**
 * A table's columns as its lake files hold them, each cast to text: `file` reads them from the files,
 * `table` computes the same from the warehouse table (omitted columns left out, deferred ones NULL
 * where deferred: TableDef.export).
 */
export function lakeColumnsOf(def: TableDef): { file: string[]; table: string[] } {
  const omitted = new Set(def.export.omit ?? []);
  const deferred = new Set(def.export.deferred?.columns ?? []);
  const cols = def.columns.filter((c) => !omitted.has(c.name));
  return {
    file: cols.map((c) => `CAST("${c.name}" AS VARCHAR)`),
    table: cols.map((c) => (deferred.has(c.name) ? `CAST(CASE WHEN ${def.export.deferred!.where} THEN NULL ELSE "${c.name}" END AS VARCHAR)` : `CAST("${c.name}" AS VARCHAR)`)),
  };
}
