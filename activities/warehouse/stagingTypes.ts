import { BIGINT, BOOLEAN, DOUBLE, HUGEINT, INTEGER, LIST, UBIGINT, VARCHAR, type DuckDBType } from '@duckdb/node-api';
import type { ColumnType } from './tableDef.ts';

/**
 * Staging tables take what the appender writes cheaply: DECIMAL(38,0) arrives as HUGEINT and JSON as
 * VARCHAR; DuckDB casts both exactly on the INSERT ... SELECT into the real table.
 */
export function stagingSqlType(type: ColumnType): string {
  if (type === 'DECIMAL(38,0)') return 'HUGEINT';
  if (type === 'JSON') return 'VARCHAR';
  return type;
}

export function stagingDuckDBType(type: ColumnType): DuckDBType {
  switch (type) {
    case 'VARCHAR':
    case 'JSON':
      return VARCHAR;
    case 'BIGINT':
      return BIGINT;
    case 'UBIGINT':
      return UBIGINT;
    case 'INTEGER':
      return INTEGER;
    case 'DOUBLE':
      return DOUBLE;
    case 'BOOLEAN':
      return BOOLEAN;
    case 'HUGEINT':
    case 'DECIMAL(38,0)':
      return HUGEINT;
    case 'VARCHAR[]':
      return LIST(VARCHAR);
  }
}
