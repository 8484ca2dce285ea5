import { Bool, Decimal, Field, Float64, Int32, Int64, List, RecordBatch, Schema, Struct, Table, Uint64, Utf8, makeData, makeVector, type Data, type DataType, type Vector } from 'apache-arrow';
import type { CellValue, ColumnType, Row, TableDef } from '../activities/warehouse/tableDef.ts';

/**
 * The write path before the column readers (kept here only to measure it, bench/writePath.ts): plain
 * rows to an Arrow table with the table's schema, and back to columns of JS values for the DuckDB
 * appender. @duckdb/node-api has no Arrow input, so Arrow was only a transit format between two
 * walks of the same values; the product now hands its column vectors to the appender directly.
 */

/** The Arrow type carrying each DuckDB column type (HUGEINT and DECIMAL(38,0) both as Decimal128(38, 0)). */
function arrowType(type: ColumnType): DataType {
  switch (type) {
    case 'VARCHAR':
    case 'JSON':
      return new Utf8();
    case 'BIGINT':
      return new Int64();
    case 'UBIGINT':
      return new Uint64();
    case 'INTEGER':
      return new Int32();
    case 'DOUBLE':
      return new Float64();
    case 'BOOLEAN':
      return new Bool();
    case 'HUGEINT':
    case 'DECIMAL(38,0)':
      return new Decimal(0, 38, 128);
    case 'VARCHAR[]':
      return new List(new Field('item', new Utf8(), true));
  }
}

/** The Arrow schema of a warehouse table: one nullable field per column, in DDL order. */
function arrowSchema(def: TableDef): Schema {
  const pk = new Set(def.primaryKey);
  return new Schema(def.columns.map((c) => new Field(c.name, arrowType(c.type), !pk.has(c.name))));
}

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

/** Validity bitmap of a column (bit set = value present). */
function validityOf(values: readonly CellValue[]): { nullBitmap: Uint8Array; nullCount: number } {
  const nullBitmap = new Uint8Array(Math.ceil(values.length / 8));
  let nullCount = 0;
  for (let i = 0; i < values.length; i++) {
    if (values[i] === null || values[i] === undefined) nullCount++;
    else nullBitmap[i >> 3] |= 1 << (i & 7);
  }
  return { nullBitmap, nullCount };
}

/**
 * UTF-8 bytes and offsets of strings (nulls are empty). Most warehouse text is ASCII (hashes, ids,
 * addresses), so the strings are joined and encoded once; byte offsets then equal character offsets.
 */
function utf8Buffers(values: readonly (string | null | undefined)[]): { valueOffsets: Int32Array; data: Uint8Array } {
  const valueOffsets = new Int32Array(values.length + 1);
  let chars = 0;
  for (let i = 0; i < values.length; i++) {
    chars += values[i]?.length ?? 0;
    valueOffsets[i + 1] = chars;
  }
  const joined = values.map((v) => v ?? '').join('');
  const data = Buffer.from(joined, 'utf8');
  if (data.length === joined.length) return { valueOffsets, data };
  // Some multi-byte character: encode string by string.
  let bytes = 0;
  const parts = values.map((v, i) => {
    const part = Buffer.from(v ?? '', 'utf8');
    bytes += part.length;
    valueOffsets[i + 1] = bytes;
    return part;
  });
  return { valueOffsets, data: Buffer.concat(parts, bytes) };
}

/** The strings of UTF-8 Arrow data (offsets into bytes), decoding the whole buffer at once when it is ASCII. */
function utf8Strings(bytes: Uint8Array, offsets: Int32Array, from: number, count: number): string[] {
  const out: string[] = new Array(count);
  const start = offsets[from];
  const end = offsets[from + count];
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = buffer.toString('utf8', start, end);
  if (text.length === end - start) {
    for (let i = 0; i < count; i++) out[i] = text.slice(offsets[from + i] - start, offsets[from + i + 1] - start);
  } else {
    for (let i = 0; i < count; i++) out[i] = buffer.toString('utf8', offsets[from + i], offsets[from + i + 1]);
  }
  return out;
}

/** One Arrow column built straight into typed buffers (the generic builders cost more than the rest of a commit). */
function columnData(type: ColumnType, values: readonly CellValue[]): Data {
  const length = values.length;
  const { nullBitmap, nullCount } = validityOf(values);
  const arrow = arrowType(type);
  switch (type) {
    case 'VARCHAR':
    case 'JSON':
      return makeData({ type: arrow as Utf8, length, nullCount, nullBitmap, ...utf8Buffers(values as (string | null)[]) });
    case 'BIGINT':
    case 'UBIGINT': {
      const data = type === 'BIGINT' ? new BigInt64Array(length) : new BigUint64Array(length);
      for (let i = 0; i < length; i++) {
        const v = values[i];
        if (v !== null && v !== undefined) data[i] = typeof v === 'bigint' ? v : BigInt(v as number | string);
      }
      return makeData({ type: arrow as Int64, length, nullCount, nullBitmap, data: data as BigInt64Array });
    }
    case 'INTEGER':
    case 'DOUBLE': {
      const data = type === 'INTEGER' ? new Int32Array(length) : new Float64Array(length);
      for (let i = 0; i < length; i++) {
        const v = values[i];
        if (v !== null && v !== undefined) data[i] = Number(v);
      }
      return makeData({ type: arrow as Int32, length, nullCount, nullBitmap, data: data as Int32Array });
    }
    case 'BOOLEAN': {
      const data = new Uint8Array(Math.ceil(length / 8));
      for (let i = 0; i < length; i++) if (values[i] === true) data[i >> 3] |= 1 << (i & 7);
      return makeData({ type: arrow as Bool, length, nullCount, nullBitmap, data });
    }
    case 'HUGEINT':
    case 'DECIMAL(38,0)':
      return decimalVector(values).data[0];
    case 'VARCHAR[]': {
      const lists = values as (string[] | null)[];
      const valueOffsets = new Int32Array(length + 1);
      const items: string[] = [];
      for (let i = 0; i < length; i++) {
        for (const item of lists[i] ?? []) items.push(item);
        valueOffsets[i + 1] = items.length;
      }
      const child = makeData({ type: new Utf8(), length: items.length, nullCount: 0, ...utf8Buffers(items) });
      return makeData({ type: arrow as List<Utf8>, length, nullCount, nullBitmap, valueOffsets, child });
    }
  }
}

/** Builds the Arrow table of `def` from rows (missing keys are nulls). */
export function rowsToArrow(def: TableDef, rows: readonly Row[]): Table {
  const unique = dedupe(def, rows);
  const schema = arrowSchema(def);
  const children = def.columns.map((column) => columnData(column.type, unique.map((r) => r[column.name] ?? null)));
  // One record batch with the declared schema (field order and nullability), built from the column data.
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
      const o = j * 4;
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
  const out: CellValue[] = [];
  for (const data of vector.data) {
    const valid = (j: number) => data.nullCount === 0 || data.getValid(j);
    if (type === 'VARCHAR' || type === 'JSON') {
      // A sliced Data has its offsets (and fixed-width values) already cut to the slice; only bitmaps keep `offset`.
      const strings = utf8Strings(data.values as Uint8Array, data.valueOffsets as Int32Array, 0, data.length);
      for (let j = 0; j < data.length; j++) out.push(valid(j) ? strings[j] : null);
    } else if (type === 'VARCHAR[]') {
      const offsets = data.valueOffsets as Int32Array;
      const child = data.children[0];
      const first = offsets[0];
      const items = utf8Strings(child.values as Uint8Array, child.valueOffsets as Int32Array, first, offsets[data.length] - first);
      for (let j = 0; j < data.length; j++) out.push(valid(j) ? items.slice(offsets[j] - first, offsets[j + 1] - first) : null);
    } else if (type === 'BOOLEAN') {
      const bits = data.values as Uint8Array;
      for (let j = 0; j < data.length; j++) {
        const k = data.offset + j;
        out.push(valid(j) ? (bits[k >> 3] & (1 << (k & 7))) !== 0 : null);
      }
    } else {
      const dense = data.values as BigInt64Array | BigUint64Array | Int32Array | Float64Array;
      for (let j = 0; j < data.length; j++) out.push(valid(j) ? dense[j] : null);
    }
  }
  return out;
}
