/**
 * The shape of every warehouse table, declared once in TypeScript (activities/streams/) and rendered
 * into the DDL in sql/schema/. The DuckDB staging types and the column readers derive from it too, so
 * the three can never drift apart (a test renders the DDL and compares it with the committed file).
 */

/** DuckDB column types used by the warehouse. Epoch-second timestamps stay BIGINT, as the API sends them. */
export type ColumnType = 'VARCHAR' | 'JSON' | 'BIGINT' | 'UBIGINT' | 'INTEGER' | 'DOUBLE' | 'BOOLEAN' | 'HUGEINT' | 'DECIMAL(38,0)' | 'VARCHAR[]';

export interface ColumnDef {
  name: string;
  type: ColumnType;
  comment?: string;
  /**
   * The column came after its table was first released: the DDL also adds it to existing warehouses
   * (ALTER TABLE ADD COLUMN IF NOT EXISTS, run when the DDL file changes). `fill` is a SQL expression
   * over the row's other columns that sets it on rows stored before (a key column must not be NULL).
   * `retype`: the column existed with another type; existing warehouses convert it (SET DATA TYPE).
   */
  added?: { fill?: string; retype?: boolean };
}

/** How rows of a page land in the table. */
export type MergeKind =
  /** Insert or replace by primary key. */
  | 'upsert'
  /** Slowly changing dimension type 2: a new row when `tracked` changes, the open row closed (valid_to). */
  | 'scd2'
  /**
   * A snapshot stream's table kept as versions (VersionsSpec): a row is the value of its key from its
   * snapshot_at (the first snapshot that saw it) until valid_to (the snapshot that saw it changed or
   * gone; NULL: current). A walk writes only the keys whose value changed.
   */
  | 'versions';

export interface Scd2Spec {
  /** Business key (primary key minus valid_from). */
  key: string[];
  /** Columns whose change opens a new version. */
  tracked: string[];
}

/**
 * A versioned snapshot table: its key is the primary key without `snapshot_at`; every other column but
 * valid_to is tracked (a change opens a version). `scope` is a SQL predicate over the row `t` and the
 * finished walk's partition params `p` (JSON): the rows that walk answers for, whose open versions it
 * closes when it did not list their key. A walk of a stream that writes the table without answering
 * for it (an ERC balance page's native balance) matches no row.
 */
export interface VersionsSpec {
  scope: string;
  /** The same as `scope` says of a walk's params, in TypeScript: a walk it rejects answers for no row (its close is not run). Default: every walk may. */
  answers?: (params: Record<string, unknown>) => boolean;
}

/**
 * How the table's rows fall into the lake's partitions: its partition columns (its chain or network)
 * and an optional epoch-second column whose UTC day dates a row. Commits mark the (columns, day)
 * partitions they change (lakeKeys.ts), and the lake partitions the table by those columns and the
 * day's month (activities/lake/export.ts).
 */
export interface ExportLayout {
  partitionBy: string[];
  dateFrom?: string;
  /**
   * The rows whose `column` equals `equals` are dated by `dateFrom` here when it is not NULL (never
   * earlier than the table's dateFrom): pn_transaction_utxos' consumed rows by the spend (their
   * transaction's time), not by the consumed UTXO's creation.
   */
  dateWhen?: { column: string; equals: string; dateFrom: string };
  /**
   * For a table whose partition columns name no chain or network (so no shard owns a partition): SQL
   * over a lake row naming the rows this warehouse answers for (its own walks), so a shard's export
   * changes only its own rows of the shared lake table (activities/lake/export.ts).
   */
  owned?: string;
}

export interface TableDef {
  name: string;
  comment: string;
  columns: ColumnDef[];
  primaryKey: string[];
  merge: MergeKind;
  /**
   * A column that never changes for a key and grows in sync order (a block number or timestamp). The
   * merge also matches on it, so DuckDB skips the row groups whose min/max cannot hold the batch's keys
   * and the cost of a merge stays flat as the table grows. Leave it out when the value can be NULL or
   * can change for a key.
   */
  pruneBy?: string;
  scd2?: Scd2Spec;
  versions?: VersionsSpec;
  export: ExportLayout;
  /**
   * Files under sql/ run after this table's merge, in the same transaction, with `{stage}` naming
   * the staged batch: updates a new row implies for rows stored earlier (a spend marks the UTXO it
   * consumes), so incremental walks that never re-read old items still match the API.
   */
  afterMerge?: string[];
  /** Files under sql/ run before this table's merge (same transaction, `{stage}` as above): marks of what the merge replaces, read while the stored rows are still there. */
  beforeMerge?: string[];
  /**
   * Columns that say when a run last listed the row (last_seen_at), not what it holds (upsert only). A
   * merge writes a row whose other values are unchanged by updating these columns in place, not by
   * deleting and inserting the whole row (mergeSql.ts).
   */
  touch?: string[];
}

export type CellValue = string | bigint | number | boolean | string[] | null;
export type Row = Record<string, CellValue | undefined>;

/** The column that closes a version of a versioned table (merge 'versions'). */
export const VALID_TO = 'valid_to';
/** The column that opens one: the snapshot that first saw the value. */
export const VERSION_FROM = 'snapshot_at';

/** The key of a versioned table: its primary key without snapshot_at. */
export function versionKey(def: TableDef): string[] {
  return def.primaryKey.filter((k) => k !== VERSION_FROM);
}

/** Columns whose change opens a new version: all but the key, snapshot_at and valid_to. */
export function versionTracked(def: TableDef): string[] {
  return def.columns.map((c) => c.name).filter((c) => !def.primaryKey.includes(c) && c !== VALID_TO);
}
