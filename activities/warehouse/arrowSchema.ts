import { Bool, Decimal, Field, Float64, Int32, Int64, List, Schema, Uint64, Utf8, type DataType } from 'apache-arrow';
import type { ColumnType, TableDef } from './tableDef.ts';

/** The Arrow type carrying each DuckDB column type (HUGEINT and DECIMAL(38,0) both as Decimal128(38, 0)). */
export function arrowType(type: ColumnType): DataType {
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
export function arrowSchema(def: TableDef): Schema {
  const pk = new Set(def.primaryKey);
  return new Schema(def.columns.map((c) => new Field(c.name, arrowType(c.type), !pk.has(c.name))));
}
