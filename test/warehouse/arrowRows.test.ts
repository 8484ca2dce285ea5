import { describe, expect, it } from 'vitest';
import { arrowColumnValues, rowsToArrow } from '../../activities/warehouse/arrowRows.ts';
import type { ColumnType, Row, TableDef } from '../../activities/warehouse/tableDef.ts';

const types: ColumnType[] = ['VARCHAR', 'JSON', 'BIGINT', 'UBIGINT', 'INTEGER', 'DOUBLE', 'BOOLEAN', 'HUGEINT', 'DECIMAL(38,0)', 'VARCHAR[]'];
const def: TableDef = {
  name: 't',
  comment: '',
  columns: [{ name: 'id', type: 'INTEGER' }, ...types.map((type, i) => ({ name: `c${i}`, type }))],
  primaryKey: ['id'],
  merge: 'upsert',
  export: { partitionBy: [] },
};

function sample(id: number): Row {
  const nul = id % 3 === 0;
  return {
    id,
    c0: nul ? null : id % 2 ? `0xabc${id}` : `ünï-cødé ${id} 🚀`,
    c1: nul ? null : JSON.stringify({ id, name: id % 2 ? 'a' : 'é' }),
    c2: nul ? null : -(2n ** 62n) + BigInt(id),
    c3: nul ? null : 2n ** 64n - 1n - BigInt(id),
    c4: nul ? null : -id,
    c5: nul ? null : id / 7,
    c6: nul ? null : id % 2 === 0,
    c7: nul ? null : -(2n ** 120n) + BigInt(id),
    c8: nul ? null : 10n ** 37n + BigInt(id),
    c9: nul ? null : id % 2 ? [] : [`a${id}`, 'ß', ''],
  };
}

describe('rowsToArrow / arrowColumnValues', () => {
  it('round-trips every column type exactly, with nulls, non-ASCII text and empty lists', () => {
    const rows = Array.from({ length: 50 }, (_, i) => sample(i));
    const table = rowsToArrow(def, rows);
    expect(table.numRows).toBe(50);
    for (const column of def.columns) {
      expect(arrowColumnValues(table, column.name, column.type), column.name).toEqual(rows.map((r) => r[column.name] ?? null));
    }
  });

  it('reads a sliced table from the slice, not from the start of its buffers', () => {
    const rows = Array.from({ length: 40 }, (_, i) => sample(i));
    const sliced = rowsToArrow(def, rows).slice(13, 31);
    for (const column of def.columns) {
      expect(arrowColumnValues(sliced, column.name, column.type), column.name).toEqual(rows.slice(13, 31).map((r) => r[column.name] ?? null));
    }
  });

  it('keeps the last row of a repeated primary key', () => {
    const table = rowsToArrow(def, [{ ...sample(1), c0: 'first' }, sample(2), { ...sample(1), c0: 'last' }]);
    expect(arrowColumnValues(table, 'id', 'INTEGER')).toEqual([1, 2]);
    expect(arrowColumnValues(table, 'c0', 'VARCHAR')).toEqual(['last', sample(2).c0]);
  });
});
