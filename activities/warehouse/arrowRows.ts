import { Decimal, RecordBatch, Struct, Table, makeData, makeVector, vectorFromArray, type DataType, type Vector } from 'apache-arrow';
import { arrowSchema, arrowType } from './arrowSchema.ts';
import type { CellValue, ColumnType, Row, TableDef } from './tableDef.ts';

/**
 * Plain rows (normalizer output) to an Arrow table with the table's schema, and back to columns of
 * JS values for the DuckDB appender. Rows with the same primary key collapse to the last one: a page
 * can repeat an item and DuckDB's upsert refuses to touch one key twice in a statement.
 */

const TWO_128 = 1n << 128n;

function decimalVector(values: readonly CellValue[]): Vector {
  const words = new Uint32Array(values.length * 4);
  const validity = new Uint8Array(Math.ceil(values.length / 8));
  let nullCount = 0;
  values.forEach((v, i) => {
    if (v === null || v === undefined) {
      nullCount++;
      return;
    }
    validity[i >> 3] |= 1 << (i & 7);
    let n = BigInt(v as bigint | string);
    if (n < 0n) n += TWO_128;
    for (let w = 0; w < 4; w++) {
      words[i * 4 + w] = Number(n & 0xffffffffn);
      n >>= 32n;
    }
  });
  return makeVector(makeData({ type: new Decimal(0, 38, 128), length: values.length, nullCount, nullBitmap: validity, data: words }));
}

function dedupe(def: TableDef, rows: readonly Row[]): Row[] {
  if (rows.length < 2) return [...rows];
  const byKey = new Map<string, Row>();
  for (const row of rows) byKey.set(def.primaryKey.map((k) => String(row[k])).join('\u0000'), row);
  return [...byKey.values()];
}

/** Builds the Arrow table of `def` from rows (missing keys are nulls). */
export function rowsToArrow(def: TableDef, rows: readonly Row[]): Table {
  const unique = dedupe(def, rows);
  const schema = arrowSchema(def);
  const columns: Record<string, Vector> = {};
  for (const column of def.columns) {
    const values = unique.map((r) => r[column.name] ?? null);
    columns[column.name] =
      column.type === 'HUGEINT' || column.type === 'DECIMAL(38,0)' ? decimalVector(values) : (vectorFromArray as (v: unknown[], t: DataType) => Vector)(values, arrowType(column.type));
  }
  // One record batch with the declared schema (field order and nullability), built from the column data.
  const children = def.columns.map((c) => columns[c.name].data[0]);
  const data = makeData({ type: new Struct(schema.fields), length: unique.length, nullCount: 0, children });
  return new Table([new RecordBatch(schema, data)]);
}

function decimalValues(vector: Vector): (bigint | null)[] {
  const out: (bigint | null)[] = new Array(vector.length);
  let i = 0;
  for (const data of vector.data) {
    const words = data.values as Uint32Array;
    for (let j = 0; j < data.length; j++, i++) {
      if (!data.getValid(j)) {
        out[i] = null;
        continue;
      }
      const o = (data.offset + j) * 4;
      let n = (BigInt(words[o + 3]) << 96n) | (BigInt(words[o + 2]) << 64n) | (BigInt(words[o + 1]) << 32n) | BigInt(words[o]);
      if (n >= 1n << 127n) n -= TWO_128;
      out[i] = n;
    }
  }
  return out;
}

/** One column of an Arrow table as JS values suitable for DuckDB (bigint for 64/128-bit, string[] for lists). */
export function arrowColumnValues(table: Table, name: string, type: ColumnType): CellValue[] {
  const vector = table.getChild(name);
  if (!vector) return new Array<CellValue>(table.numRows).fill(null);
  if (type === 'HUGEINT' || type === 'DECIMAL(38,0)') return decimalValues(vector);
  const out: CellValue[] = new Array(vector.length);
  if (type === 'VARCHAR[]') {
    for (let i = 0; i < vector.length; i++) {
      const item = vector.get(i) as Vector | null;
      out[i] = item === null ? null : (Array.from(item.toArray() as ArrayLike<string>) as string[]);
    }
    return out;
  }
  const dense = vector.toArray() as ArrayLike<CellValue>;
  const hasNulls = vector.nullCount > 0;
  for (let i = 0; i < vector.length; i++) out[i] = hasNulls && !vector.isValid(i) ? null : dense[i];
  return out;
}
