import type { DuckDBConnection } from '@duckdb/node-api';
import { ident } from './identifier.ts';
import { sqlFile } from './sqlFile.ts';
import type { TableDef } from './tableDef.ts';
import { keyTextSql } from './versions.ts';

/**
 * Schema step 7: the seven snapshot tables become versions (TableDef.merge 'versions'). What each
 * table's rows were at version 7 is written out here, not read from the catalog: a step converts the
 * file as it was then, whatever later releases do to the catalog. Runs after the sql/schema files
 * (they add valid_to), in the migration transaction.
 */
interface VersionedAt7 {
  table: string;
  key: string[];
  /** The walks that answer for its rows (close them when they do not list a key). */
  streams: string[];
  scope: string;
}

const ERC = "t.chain_id = (p->>'chainId') AND t.address = (p->>'address')";

export const VERSIONED_AT_7: readonly VersionedAt7[] = [
  {
    table: 'evm_native_balances',
    key: ['chain_id', 'address'],
    streams: ['evm.native_balances'],
    scope: "t.chain_id = (p->>'chainId') AND list_contains(CAST(p->'addresses' AS VARCHAR[]), t.address)",
  },
  { table: 'evm_erc20_balances', key: ['chain_id', 'address', 'token_address'], streams: ['evm.erc20_balances'], scope: ERC },
  { table: 'evm_erc721_balances', key: ['chain_id', 'address', 'token_address', 'token_id'], streams: ['evm.erc721_balances'], scope: ERC },
  { table: 'evm_erc1155_balances', key: ['chain_id', 'address', 'token_address', 'token_id'], streams: ['evm.erc1155_balances'], scope: ERC },
  {
    table: 'pn_balances',
    key: ['network', 'blockchain_id', 'address_set', 'kind', 'item_index'],
    streams: ['pn.balances'],
    scope: "t.network = (p->>'network') AND t.blockchain_id = (p->>'blockchainId') AND t.address_set = array_to_string(CAST(p->'addresses' AS VARCHAR[]), ',')",
  },
  {
    table: 'pn_pending_rewards',
    key: ['network', 'tx_hash', 'reward_type'],
    streams: ['pn.pending_rewards'],
    scope:
      "t.network = (p->>'network') AND (((p->'addresses') IS NULL AND (p->'nodeIds') IS NULL) OR coalesce(list_has_any(list_transform(t.addresses, a -> regexp_replace(a, '^[PXC]-', '')), list_transform(CAST(p->'addresses' AS VARCHAR[]), a -> regexp_replace(a, '^[PXC]-', ''))), false) OR coalesce(list_contains(CAST(p->'nodeIds' AS VARCHAR[]), t.node_id), false))",
  },
  {
    table: 'metrics_holders',
    key: ['chain_id', 'contract_address', 'threshold', 'address'],
    streams: ['metrics.holders'],
    scope: "t.chain_id = (p->>'chainId') AND t.contract_address = (p->>'address') AND t.threshold = (p->>'threshold')",
  },
];

export async function convertSnapshotTablesToVersions(connection: DuckDBConnection): Promise<void> {
  const template = sqlFile('migrations/007_snapshot_versions.sql');
  for (const v of VERSIONED_AT_7) {
    const columns = (await connection.runAndReadAll('SELECT column_name FROM information_schema.columns WHERE table_name = $1 AND table_schema = current_schema() ORDER BY ordinal_position', [v.table]))
      .getRowObjectsJS()
      .map((r) => String(r.column_name));
    if (columns.length === 0) continue; // a file without this table (it is created at version 7 already)
    const tracked = columns.filter((c) => !v.key.includes(c) && c !== 'snapshot_at' && c !== 'valid_to');
    const fill: Record<string, string> = {
      table: ident(v.table),
      table_name: v.table,
      key: v.key.map(ident).join(', '),
      tracked: tracked.map(ident).join(', '),
      streams: v.streams.map((s) => `'${s}'`).join(', '),
      scope: v.scope,
      key_text: keyTextSql({ primaryKey: v.key } as TableDef, 't'),
    };
    await connection.run(template.replace(/\{(table_name|table|key|tracked|streams|scope|key_text)\}/g, (_, name: string) => fill[name]));
  }
}
