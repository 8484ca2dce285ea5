import type { VerifyFinding } from '../../common/activityTypes.ts';
import { ident } from '../warehouse/identifier.ts';
import { partitionFilter, valuesOfKey } from '../warehouse/lakeKeys.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import type { Warehouse } from '../warehouse/warehouse.ts';

/**
 * Stream tables keep their keys through the merge, not through an index (see renderDdl.ts), so verify
 * checks them: one finding listing every table whose key repeats. Identifiers come from the catalog.
 */
export async function keyUniquenessFinding(warehouse: Warehouse, tables: readonly TableDef[]): Promise<VerifyFinding> {
  const repeated: string[] = [];
  for (const def of tables) {
    const key = def.primaryKey.map(ident).join(', ');
    const [row] = await warehouse.query(`SELECT count(*) - count(DISTINCT (${key})) AS repeated FROM ${ident(def.name)}`);
    if (Number(row.repeated) > 0) repeated.push(`${def.name} (${Number(row.repeated)} rows)`);
  }
  return {
    check: 'tables: every key is stored once',
    ok: repeated.length === 0,
    detail: repeated.length ? `repeated keys in ${repeated.join(', ')}` : `${tables.length} tables checked`,
  };
}

/**
 * Nightly: the same check over the partitions commits changed (each read by its key and day range),
 * so its cost follows the change. A key repeated across two partitions is left to the full verify.
 */
export async function changedKeyUniquenessFinding(warehouse: Warehouse, tables: readonly TableDef[], changed: readonly { table: string; key: string }[]): Promise<VerifyFinding> {
  const repeated = new Map<string, number>();
  let checked = 0;
  for (const def of tables) {
    const key = def.primaryKey.map(ident).join(', ');
    for (const c of changed) {
      if (c.table !== def.name) continue;
      const values = valuesOfKey(def, c.key);
      if (!values) continue;
      const { where, params } = partitionFilter(def, values);
      const [row] = await warehouse.query(`SELECT count(*) - count(DISTINCT (${key})) AS repeated FROM ${ident(def.name)} WHERE ${where}`, params);
      checked++;
      if (Number(row.repeated) > 0) repeated.set(def.name, (repeated.get(def.name) ?? 0) + Number(row.repeated));
    }
  }
  return {
    check: 'tables: every key is stored once (changed partitions)',
    ok: repeated.size === 0,
    detail: repeated.size ? `repeated keys in ${[...repeated].map(([t, n]) => `${t} (${n} rows)`).join(', ')}` : `${checked} changed partitions checked`,
  };
}
