import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as c from '@avalanche-sdk/chainkit/models/components';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidatorsPage } from '../../activities/api/schemas/index.ts';
import { pnValidators, pnValidatorsTable } from '../../activities/streams/pnValidators.ts';
import { openWarehouse, rowsToColumns, type Warehouse } from '../../activities/warehouse/index.ts';

/**
 * pn.validators over the public service's four per-status shapes: fixtures typed and checked by
 * the official SDK, parsed by our client schema, normalized and committed to a real DuckDB file,
 * read back column by column (nothing dropped, amounts exact, a null geolocation stays NULL). And
 * the migration: a warehouse made before the new columns opens with them, in catalog order.
 */

const common = {
  txHash: '2ZrPAH8UMNxCsKmN1y3NJmnHzJN3XW4HTSC3kGrn5iUS2YqiDc',
  subnetId: '11111111111111111111111111111111LpoYY',
  amountStaked: '2500000000000000',
  delegationFee: '2.5',
  startTimestamp: 1_700_000_000,
  endTimestamp: 1_702_000_000,
  blsCredentials: { publicKey: '0xa1', proofOfPossession: '0xb2' },
};

const active: c.ActiveValidatorDetails = {
  ...common,
  nodeId: 'NodeID-Active111111111111111111111',
  validationStatus: 'active',
  stakePercentage: 0.012345,
  delegatorCount: 3,
  amountDelegated: '750000000000000',
  uptimePerformance: 99.87,
  avalancheGoVersion: 'avalanchego/1.13.0',
  // Beyond 2^64: the column must keep it exactly.
  delegationCapacity: '36893488147419103232',
  potentialRewards: { validationRewardAmount: '1234567890123', delegationRewardAmount: '98765' },
  validatorHealth: { reachabilityPercent: 99.5, benchedPChainRequestsPercent: 0.1, benchedXChainRequestsPercent: 0, benchedCChainRequestsPercent: 0.2 },
  geolocation: { city: 'Helsinki', country: 'Finland', countryCode: 'FI', latitude: 60.1699, longitude: 24.9384 },
};
const activeUnplaced: c.ActiveValidatorDetails = { ...active, nodeId: 'NodeID-Unplaced11111111111111111', txHash: 'tx-unplaced', geolocation: null };
const completed: c.CompletedValidatorDetails = {
  ...common,
  nodeId: 'NodeID-Completed1111111111111111',
  txHash: 'tx-completed',
  validationStatus: 'completed',
  delegatorCount: 2,
  amountDelegated: '50000000000',
  rewards: { validationRewardAmount: '111', delegationRewardAmount: '22', rewardAddresses: ['avax1abc', 'avax1def'], rewardTxHash: 'tx-reward' },
};
const removed: c.RemovedValidatorDetails = {
  ...common,
  nodeId: 'NodeID-Removed11111111111111111',
  txHash: 'tx-removed',
  validationStatus: 'removed',
  removeTxHash: 'tx-remove',
  removeTimestamp: 1_701_000_000,
};
const pending: c.PendingValidatorDetails = { ...common, nodeId: 'NodeID-Pending11111111111111111', txHash: 'tx-pending', validationStatus: 'pending' };

const SNAPSHOT = 1_750_000_000;
let dir: string;
let wh: Warehouse;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'glacier-validators-'));
  wh = await openWarehouse(join(dir, 'w.duckdb'));
});

afterAll(async () => {
  await wh?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function land(items: unknown[]): Promise<Map<string, Record<string, unknown>>> {
  // The wire: JSON text, as the service sends it; first judged by the SDK, then by our client.
  const body = JSON.parse(JSON.stringify({ validators: items })) as unknown;
  expect(c.ListValidatorDetailsResponse$inboundSchema.safeParse(body).success).toBe(true);
  const page = ValidatorsPage.parse(body);
  const partition = { stream: 'pn.validators' as const, id: 'pn.validators:mainnet', network: 'mainnet' as const, params: { network: 'mainnet' } };
  const rows = pnValidators.normalize({ items: page.validators, nextPageToken: undefined }, { partition, snapshotAt: SNAPSHOT, runId: 'r' });
  const tables = pnValidators.tables;
  await wh.commitBatch(
    tables.map((t) => rowsToColumns(t, rows[t.name] ?? [])),
    { partitionId: partition.id, stream: 'pn.validators', pageToken: null, cursor: {}, rows: items.length, pages: 1, complete: true },
  );
  const read = await wh.query(
    `SELECT * REPLACE (amount_staked::VARCHAR AS amount_staked, amount_delegated::VARCHAR AS amount_delegated, delegation_capacity::VARCHAR AS delegation_capacity,
       validation_reward_amount::VARCHAR AS validation_reward_amount, delegation_reward_amount::VARCHAR AS delegation_reward_amount,
       potential_rewards::VARCHAR AS potential_rewards, validator_health::VARCHAR AS validator_health, geolocation::VARCHAR AS geolocation)
     FROM pn_validators`,
  );
  return new Map(read.map((r) => [String(r.node_id), r]));
}

describe('pn.validators: the four public shapes land without loss', () => {
  it('every field of every status has its column; absent fields are NULL; null geolocation stays NULL', async () => {
    const rows = await land([active, activeUnplaced, completed, removed, pending]);
    const base = {
      network: 'mainnet',
      subnet_id: common.subnetId,
      amount_staked: common.amountStaked,
      delegation_fee: '2.5',
      start_timestamp: BigInt(common.startTimestamp),
      end_timestamp: BigInt(common.endTimestamp),
      bls_public_key: '0xa1',
      bls_proof_of_possession: '0xb2',
      last_seen_at: BigInt(SNAPSHOT),
    };
    const none = {
      amount_delegated: null, delegator_count: null, validation_reward_amount: null, delegation_reward_amount: null, reward_addresses: null, reward_tx_hash: null,
      stake_percentage: null, uptime_performance: null, potential_rewards: null, validator_health: null, geolocation: null, remove_tx_hash: null, remove_timestamp: null,
      avalanche_go_version: null, delegation_capacity: null,
      // Every field of the public shapes maps to a column: nothing left for the drift column.
      _extra: null,
    };
    const activeRow = {
      ...base, ...none,
      validation_status: 'active',
      stake_percentage: 0.012345,
      delegator_count: 3,
      amount_delegated: '750000000000000',
      uptime_performance: 99.87,
      avalanche_go_version: 'avalanchego/1.13.0',
      delegation_capacity: '36893488147419103232',
      potential_rewards: JSON.stringify(active.potentialRewards),
      validator_health: JSON.stringify(active.validatorHealth),
      geolocation: JSON.stringify(active.geolocation),
    };
    expect(rows.get(active.nodeId)).toEqual({ ...activeRow, node_id: active.nodeId, tx_hash: active.txHash });
    expect(rows.get(activeUnplaced.nodeId)).toEqual({ ...activeRow, node_id: activeUnplaced.nodeId, tx_hash: 'tx-unplaced', geolocation: null });
    expect(rows.get(completed.nodeId)).toEqual({
      ...base, ...none,
      node_id: completed.nodeId, tx_hash: 'tx-completed', validation_status: 'completed',
      delegator_count: 2, amount_delegated: '50000000000',
      validation_reward_amount: '111', delegation_reward_amount: '22', reward_addresses: ['avax1abc', 'avax1def'], reward_tx_hash: 'tx-reward',
    });
    expect(rows.get(removed.nodeId)).toEqual({ ...base, ...none, node_id: removed.nodeId, tx_hash: 'tx-removed', validation_status: 'removed', remove_tx_hash: 'tx-remove', remove_timestamp: 1_701_000_000n });
    expect(rows.get(pending.nodeId)).toEqual({ ...base, ...none, node_id: pending.nodeId, tx_hash: 'tx-pending', validation_status: 'pending' });
    // The SCD2 history opens one current row per validation with its status.
    const history = await wh.query('SELECT node_id, validation_status FROM pn_validator_status_history WHERE valid_to IS NULL ORDER BY node_id');
    expect(history.map((h) => `${String(h.node_id)}:${String(h.validation_status)}`)).toEqual(
      [active, activeUnplaced, completed, pending, removed].map((v) => `${v.nodeId}:${v.validationStatus}`).sort(),
    );
  });

  it('an open validatorHealth keeps fields the SDK does not list', async () => {
    const rows = await land([{ ...active, validatorHealth: { ...active.validatorHealth, benchedL1RequestsPercent: 1.5 } }]);
    expect(JSON.parse(String(rows.get(active.nodeId)!.validator_health))).toEqual({ ...active.validatorHealth, benchedL1RequestsPercent: 1.5 });
  });
});

describe('pn_validators migration', () => {
  it('a warehouse made before avalanche_go_version and delegation_capacity opens with them, in catalog order, rows kept', async () => {
    const path = join(dir, 'old.duckdb');
    let old = await openWarehouse(path);
    // Back to the older table: without the two columns (nor the later _extra), and the schema files as not yet applied in this version.
    await old.query('ALTER TABLE pn_validators DROP COLUMN avalanche_go_version');
    await old.query('ALTER TABLE pn_validators DROP COLUMN delegation_capacity');
    await old.query('ALTER TABLE pn_validators DROP COLUMN _extra');
    await old.query("INSERT INTO pn_validators (network, node_id, tx_hash, validation_status) VALUES ('fuji', 'NodeID-Old', 't', 'active')");
    await old.query("DELETE FROM _glacier_schema_files WHERE file = '010_tables.sql'");
    await old.close();
    old = await openWarehouse(path);
    try {
      const cols = await old.query("SELECT column_name FROM information_schema.columns WHERE table_name = 'pn_validators' ORDER BY ordinal_position");
      expect(cols.map((r) => r.column_name)).toEqual(pnValidatorsTable.columns.map((col) => col.name));
      const [row] = await old.query("SELECT validation_status, avalanche_go_version, delegation_capacity FROM pn_validators WHERE node_id = 'NodeID-Old'");
      expect(row).toEqual({ validation_status: 'active', avalanche_go_version: null, delegation_capacity: null });
    } finally {
      await old.close();
    }
  });
});
