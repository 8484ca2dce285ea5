import type { ColumnType } from '../../activities/warehouse/tableDef.ts';

/** SQL for a value of the column's type made from the row number `i` (distinct per row, so keys are unique): a synthetic history. */
export function synthetic(type: ColumnType): string {
  if (type === 'VARCHAR[]') return '[CAST(i AS VARCHAR)]';
  if (type === 'JSON') return "to_json({'n': i})";
  if (type === 'BOOLEAN') return 'i % 2 = 1';
  if (type === 'VARCHAR') return "'v' || CAST(i AS VARCHAR)";
  return `CAST(i AS ${type})`;
}
