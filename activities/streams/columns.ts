import type { AssetAmount, EvmAddressInfo, Money, Erc20Token, NftMetadata } from '../api/schemas/index.ts';
import type { StreamContract } from '../../common/config.ts';
import { VALID_TO, VERSION_FROM, type CellValue, type ColumnDef, type ColumnType, type TableDef } from '../warehouse/tableDef.ts';
import { bool, dbl, dec38, huge, int, i64, json as jsonText, str, strs, u64 } from './values.ts';

/**
 * A column is declared once: its name, warehouse type, comment, and how its value is read from the
 * item it describes (`S`: an API item, or a sub-item for child tables). The builder of each type
 * takes a reader returning what that type accepts and converts it, so a reader of the wrong type is
 * a compile error and no row object repeats the column names.
 */

/** Values every row of a page shares (read once per page, not once per row). */
export interface PageContext {
  partition: { id: string; chain?: string; network?: string; params: Record<string, string | number | boolean | string[]> };
  snapshotAt: number;
  /** snapshotAt as the BIGINT the snapshot columns store. */
  snapshot: bigint;
  runId: string;
  /** Unmapped fields (JSON text) of the page's items and child entries, by object (activities/streams/unmapped.ts); absent: none kept. */
  unmapped?: ReadonlyMap<object, string>;
  /** The stream's contract (config `schemaContracts`); `discard` keeps no unmapped fields. */
  contract?: StreamContract;
}

type Maybe<V> = V | null | undefined;
/** Reads a column's raw value from `S`; the column's type converts it. */
export type Read<S, V> = (s: S, x: PageContext) => Maybe<V>;

export interface Column<S> extends ColumnDef {
  /** The cell of this column for `s`, converted to the column's type. */
  readonly get: (s: S, x: PageContext) => CellValue;
}

/** A table whose columns read `S`: the generated DDL, merge and export read its TableDef part. */
export interface TableSpec<S> extends TableDef {
  columns: Column<S>[];
}

type Numeric = string | number;

function column<S, V>(name: string, type: ColumnType, convert: (v: Maybe<V>) => CellValue, read: Read<S, V>, comment?: string): Column<S> {
  const get = (s: S, x: PageContext) => convert(read(s, x));
  return comment ? { name, type, comment, get } : { name, type, get };
}

export const varchar = <S>(name: string, read: Read<S, Numeric>, comment?: string) => column(name, 'VARCHAR', str, read, comment);
/** A JSON column: nested objects the spec leaves open (genesis data, geolocation, ...). */
export const json = <S>(name: string, read: Read<S, unknown>, comment?: string) => column(name, 'JSON', jsonText, read, comment);
/** BIGINT: epoch seconds, signed 64-bit. */
export const bigint = <S>(name: string, read: Read<S, Numeric>, comment?: string) => column(name, 'BIGINT', i64, read, comment);
/** UBIGINT: block numbers, 64-bit counters. */
export const ubigint = <S>(name: string, read: Read<S, Numeric>, comment?: string) => column(name, 'UBIGINT', u64, read, comment);
export const integer = <S>(name: string, read: Read<S, Numeric>, comment?: string) => column(name, 'INTEGER', int, read, comment);
export const double = <S>(name: string, read: Read<S, Numeric>, comment?: string) => column(name, 'DOUBLE', dbl, read, comment);
export const boolean = <S>(name: string, read: Read<S, boolean>, comment?: string) => column(name, 'BOOLEAN', bool, read, comment);
/** HUGEINT: nAVAX and other primary-network asset amounts. */
export const hugeint = <S>(name: string, read: Read<S, Numeric>, comment?: string) => column(name, 'HUGEINT', huge, read, comment);
export const varcharList = <S>(name: string, read: Read<S, readonly string[]>, comment?: string) => column(name, 'VARCHAR[]', strs, read, comment);
/** The run's snapshot time (epoch seconds), the same for every row of a run. */
export const snapshotAt = <S>(name: string, comment = 'epoch seconds of the run snapshot'): Column<S> => ({ name, type: 'BIGINT', comment, get: (_s, x) => x.snapshot });

/** A column added to a released table: existing warehouses get it by migration (see ColumnDef.added). */
export const added = <S>(column: Column<S>, fill?: string): Column<S> => ({ ...column, added: fill === undefined ? {} : { fill } });

/** A released column whose type changed: existing warehouses convert it (see ColumnDef.added). */
export const retyped = <S>(column: Column<S>): Column<S> => ({ ...column, added: { retype: true } });

/** The same column under another name (and comment): a shared group whose one column a table calls differently. */
export const renamed = <S>(c: Column<S>, name: string, comment?: string): Column<S> => ({ ...c, name, ...(comment === undefined ? {} : { comment }) });

/** Columns declared over a part `U` of `S` (a nested object, the sub-item of a child row), read through `pick`. */
export function within<S, U>(pick: (s: S, x: PageContext) => U, columns: readonly Column<U>[]): Column<S>[] {
  return columns.map((c) => ({ ...c, get: (s: S, x: PageContext) => c.get(pick(s, x), x) }));
}

/** A uint256: exact decimal text plus a DECIMAL(38,0) twin that is NULL when the value has more digits. */
export const uint256 = <S>(name: string, read: Read<S, Numeric>, comment = 'uint256'): Column<S>[] => [
  column(name, 'VARCHAR', str, read, `${comment}; exact decimal text`),
  column(`${name}_num`, 'DECIMAL(38,0)', dec38, read, `${comment}; NULL when it does not fit 38 digits`),
];

/**
 * Column groups for the nested shapes the spec repeats (addresses, money, asset amounts, tokens,
 * NFT metadata), so every table flattens them the same way.
 */
type Part<T> = Maybe<T>;

/** The five fields of an EVM address info, which an ERC-20 token shares; `commented` names the source field in each comment. */
function addressInfoColumns(prefix: string, commented: boolean, address = true): Column<Part<EvmAddressInfo>>[] {
  const note = (field: string) => (commented ? `${prefix}.${field}` : undefined);
  return [
    ...(address ? [varchar<Part<EvmAddressInfo>>(`${prefix}_address`, (v) => v?.address, note('address'))] : []),
    varchar(`${prefix}_name`, (v) => v?.name, note('name')),
    varchar(`${prefix}_symbol`, (v) => v?.symbol, note('symbol')),
    integer(`${prefix}_decimals`, (v) => v?.decimals, note('decimals')),
    varchar(`${prefix}_logo_uri`, (v) => v?.logoUri, note('logoUri')),
  ];
}

export const evmAddressInfo = <S>(prefix: string, read: (s: S, x: PageContext) => Part<EvmAddressInfo>): Column<S>[] => within(read, addressInfoColumns(prefix, true));

export const money = <S>(prefix: string, read: (s: S, x: PageContext) => Part<Money>): Column<S>[] =>
  within(read, [varchar(`${prefix}_currency`, (v) => v?.currencyCode, `${prefix}.currencyCode`), varchar(`${prefix}_value`, (v) => v?.value, `${prefix}.value, exact decimal text`)]);

/** AssetAmount; `amount` in the asset's smallest unit as HUGEINT (nAVAX and X-chain assets fit). */
export const assetAmount = <S>(prefix: string, read: (s: S, x: PageContext) => Part<AssetAmount>): Column<S>[] =>
  within(read, [
    varchar(`${prefix}asset_id`, (v) => v?.assetId),
    varchar(`${prefix}asset_name`, (v) => v?.name),
    varchar(`${prefix}asset_symbol`, (v) => v?.symbol),
    integer(`${prefix}asset_denomination`, (v) => v?.denomination),
    varchar(`${prefix}asset_type`, (v) => v?.type),
    hugeint(`${prefix}amount`, (v) => v?.amount, 'smallest unit (nAVAX for AVAX)'),
  ]);

/** An ERC-20 token; `address: false` leaves its address column out (a table that keys on it names it itself). */
export const erc20Token = <S>(prefix: string, read: (s: S, x: PageContext) => Part<Erc20Token>, address = true): Column<S>[] =>
  within(read, [
    ...addressInfoColumns(prefix, false, address),
    varchar<Part<Erc20Token>>(`${prefix}_erc_type`, (v) => v?.ercType),
    ...money(`${prefix}_price`, (v: Part<Erc20Token>) => v?.price),
  ]);

const textOrJson = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === 'string' ? v : JSON.stringify(v));

/** NftMetadata flattened; attributes/properties kept as JSON text (the spec types them as strings). */
export const nftMetadata = <S>(prefix: string, read: (s: S, x: PageContext) => Part<NftMetadata>): Column<S>[] =>
  within(read, [
    varchar(`${prefix}_index_status`, (v) => v?.indexStatus),
    bigint(`${prefix}_last_updated_timestamp`, (v) => v?.metadataLastUpdatedTimestamp),
    varchar(`${prefix}_name`, (v) => v?.name),
    varchar(`${prefix}_symbol`, (v) => v?.symbol),
    varchar(`${prefix}_image_uri`, (v) => v?.imageUri),
    varchar(`${prefix}_description`, (v) => v?.description),
    varchar(`${prefix}_animation_uri`, (v) => v?.animationUri),
    varchar(`${prefix}_external_url`, (v) => v?.externalUrl),
    varchar(`${prefix}_background`, (v) => v?.background),
    varchar(`${prefix}_attributes`, (v) => textOrJson(v?.attributes), 'ERC-721 only; as sent (string) or JSON text'),
    integer(`${prefix}_decimals`, (v) => v?.decimals, 'ERC-1155 only'),
    varchar(`${prefix}_properties`, (v) => textOrJson(v?.properties), 'ERC-1155 only; as sent (string) or JSON text'),
  ]);

/**
 * Declares a table whose columns read `S` (a column group stands in the list as it is), merged by
 * upsert unless it says otherwise. Its keys, prune column and SCD2 columns must be columns
 * of it: a typo fails when the module loads, not as a silent NULL in the warehouse.
 */
export function defineTable<S>(decl: Omit<TableSpec<S>, 'columns' | 'merge'> & { columns: (Column<S> | readonly Column<S>[])[]; merge?: TableDef['merge'] }): TableSpec<S> {
  const merge = decl.merge ?? 'upsert';
  const table: TableSpec<S> = { ...decl, merge, columns: [...decl.columns.flat(), extraColumn<S>(), ...(merge === 'versions' ? [validToColumn<S>()] : [])] };
  if ((merge === 'versions') !== (decl.versions !== undefined)) throw new Error(`table ${table.name}: merge 'versions' and a versions spec go together`);
  if (merge === 'versions' && !table.primaryKey.includes(VERSION_FROM)) throw new Error(`table ${table.name}: a versioned table keys on ${VERSION_FROM}`);
  const names = new Set(table.columns.map((c) => c.name));
  if (names.size !== table.columns.length) throw new Error(`table ${table.name}: a column name is declared twice`);
  const named = [...table.primaryKey, ...(table.pruneBy ? [table.pruneBy] : []), ...(table.touch ?? []), ...(table.scd2 ? [...table.scd2.key, ...table.scd2.tracked] : []), ...table.export.partitionBy];
  const unknown = named.filter((n) => !names.has(n));
  if (unknown.length > 0) throw new Error(`table ${table.name}: ${unknown.join(', ')} named but not declared as columns`);
  return table;
}

/** A column of every table (after the declared ones; a versioned table's valid_to follows it): the row's source fields no column maps (JSON; NULL when none). */
export const EXTRA_COLUMN = '_extra';

/** Filled by the stream driver from PageContext.unmapped (streamDef.ts filler), never by a reader of its own. */
const extraColumn = <S>(): Column<S> =>
  added({
    name: EXTRA_COLUMN,
    type: 'JSON',
    comment: 'fields the API sent for this row that no column maps (new fields, known fields kept nowhere else), as sent; integers beyond 2^53 as exact decimal text; NULL when none',
    get: () => null,
  });

/** The end of a version (merge 'versions'): written by the warehouse when a later walk sees the value changed or gone, never by a reader. */
const validToColumn = <S>(): Column<S> =>
  added({
    name: VALID_TO,
    type: 'BIGINT',
    comment: 'end of this version (epoch seconds): the snapshot of the walk that saw the value changed or gone; NULL while current. The row holds from snapshot_at until then: as of T, snapshot_at <= T AND (valid_to IS NULL OR valid_to > T)',
    get: () => null,
  });
