import type { VerifyFinding } from '../../common/activityTypes.ts';
import { ident } from '../warehouse/identifier.ts';
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
