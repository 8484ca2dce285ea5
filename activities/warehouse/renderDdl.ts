import { ident } from './identifier.ts';
import type { TableDef } from './tableDef.ts';

/**
 * Renders table declarations as DDL. sql/schema/010_tables.sql is the stream catalog's tables
 * rendered (activities/streams/catalogDdl.ts, which also regenerates it), committed so analysts read
 * plain SQL; a test fails when the file and the catalog differ.
 */

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

export function renderTable(def: TableDef): string {
  const width = Math.max(...def.columns.map((c) => c.name.length)) + 2;
  const lines = def.columns.map((c) => `  ${ident(c.name).padEnd(width)} ${c.type}${def.primaryKey.includes(c.name) ? ' NOT NULL' : ''}`);
  // The key is kept by the merge (delete the batch's keys, insert the batch), not by a PRIMARY KEY
  // constraint: DuckDB holds every ART index wholly in memory, so a constraint would make the worker's
  // memory grow with the table. `glacier-etl verify` checks that keys are unique.
  const key = `-- key: (${def.primaryKey.join(', ')})${def.pruneBy ? `; merges also match on ${def.pruneBy}` : ''}`;
  const out = [`${key}\nCREATE TABLE IF NOT EXISTS ${ident(def.name)} (\n${lines.join(',\n')}\n);`, `COMMENT ON TABLE ${ident(def.name)} IS ${quote(def.comment)};`];
  // Columns added after release reach existing warehouses here (idempotent: this file re-runs when it changes).
  // Every ALTER before the first fill: DuckDB refuses to commit a transaction that alters a table it already updated.
  for (const c of def.columns) {
    if (!c.added) continue;
    if (c.added.retype) out.push(`ALTER TABLE ${ident(def.name)} ALTER COLUMN ${ident(c.name)} SET DATA TYPE ${c.type};`);
    else out.push(`ALTER TABLE ${ident(def.name)} ADD COLUMN IF NOT EXISTS ${ident(c.name)} ${c.type};`);
  }
  for (const c of def.columns) if (c.added?.fill) out.push(`UPDATE ${ident(def.name)} SET ${ident(c.name)} = ${c.added.fill} WHERE ${ident(c.name)} IS NULL;`);
  for (const c of def.columns) if (c.comment) out.push(`COMMENT ON COLUMN ${ident(def.name)}.${ident(c.name)} IS ${quote(c.comment)};`);
  return out.join('\n');
}

export function renderDdl(tables: readonly TableDef[]): string {
  const header = [
    '-- Generated from the stream catalog (activities/streams/) by activities/streams/catalogDdl.ts. Do not edit by hand.',
    '-- Amounts: uint256 EVM values are VARCHAR (exact) plus a <name>_num DECIMAL(38,0) twin, NULL when the value has more',
    '-- than 38 digits; nAVAX and other primary-network amounts are HUGEINT; 64-bit counters UBIGINT/BIGINT; times are',
    '-- epoch seconds (BIGINT) as the API sends them. Nested objects are flattened to prefixed columns, string lists are',
    '-- VARCHAR[] columns, lists of objects are child tables, and objects the spec leaves open are JSON.',
  ].join('\n');
  return `${[header, ...tables.map(renderTable)].join('\n\n')}\n`;
}
