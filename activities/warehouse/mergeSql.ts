import { ident } from './identifier.ts';
import type { TableDef } from './tableDef.ts';

/**
 * The statements that move a staging table into its real table. Identifiers come only from the
 * table catalog (checked by `ident`); values never appear in SQL text.
 */
export function mergeStatements(def: TableDef, stage: string): string[] {
  const t = ident(def.name);
  const s = ident(stage);
  const cols = def.columns.map((c) => ident(c.name)).join(', ');
  if (def.merge === 'scd2') {
    if (!def.scd2) throw new Error(`${def.name}: scd2 merge without scd2 spec`);
    const keyMatch = def.scd2.key.map((k) => `t.${ident(k)} = s.${ident(k)}`).join(' AND ');
    const changed = def.scd2.tracked.map((c) => `t.${ident(c)} IS DISTINCT FROM s.${ident(c)}`).join(' OR ');
    return [
      // Close the open version of every key whose tracked columns changed in this snapshot.
      `UPDATE ${t} AS t SET valid_to = s.valid_from FROM ${s} AS s WHERE ${keyMatch} AND t.valid_to IS NULL AND t.valid_from < s.valid_from AND (${changed})`,
      // Open a version for every key without one (new keys and the ones just closed); a retried
      // snapshot finds its version already there.
      `INSERT OR IGNORE INTO ${t} (${cols}) SELECT ${cols} FROM ${s} AS s WHERE NOT EXISTS (SELECT 1 FROM ${t} AS t WHERE ${keyMatch} AND t.valid_to IS NULL)`,
    ];
  }
  const allKey = def.columns.every((c) => def.primaryKey.includes(c.name));
  return [`INSERT OR ${allKey ? 'IGNORE' : 'REPLACE'} INTO ${t} (${cols}) SELECT ${cols} FROM ${s}`];
}
