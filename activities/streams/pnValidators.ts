import { endpoints } from '../api/endpoints/index.ts';
import type { Validator } from '../api/schemas/index.ts';
import type { TableDef } from '../warehouse/tableDef.ts';
import { added, col } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import type { StreamDef } from './streamDef.ts';
import { dbl, huge, int, i64, json, str, strs } from './values.ts';
import { fetchValidatorPage } from './validatorWalk.ts';

export const pnValidatorsTable: TableDef = {
  name: 'pn_validators',
  comment:
    'Validations (Validator) of each network, every uptime, current state; upserted by (network, node_id, tx_hash); a sync reads only validations that can have changed (active, pending, newly final), so last_seen_at is the last run that listed the row. Per-status fields of the public service (active: stake_percentage, delegator_count, amount_delegated, uptime_performance, avalanche_go_version, delegation_capacity, potential_rewards, validator_health, geolocation; completed: delegator_count, amount_delegated, rewards; removed: remove_tx_hash, remove_timestamp; pending: common fields only) are NULL where the status does not carry them. blsCredentials and rewards flattened; potentialRewards, validatorHealth, geolocation as JSON. History of validation_status in pn_validator_status_history.',
  columns: [
    col('network', 'VARCHAR'),
    col('node_id', 'VARCHAR'),
    col('tx_hash', 'VARCHAR', 'staking tx; empty string when absent (part of the key)'),
    col('subnet_id', 'VARCHAR'),
    col('validation_status', 'VARCHAR', 'completed, active, pending, removed; other values as sent'),
    col('amount_staked', 'HUGEINT', 'nAVAX'),
    col('amount_delegated', 'HUGEINT', 'nAVAX; active and completed'),
    col('delegation_fee', 'VARCHAR', 'percent, decimal text as sent'),
    col('start_timestamp', 'BIGINT'),
    col('end_timestamp', 'BIGINT'),
    col('bls_public_key', 'VARCHAR'),
    col('bls_proof_of_possession', 'VARCHAR'),
    col('delegator_count', 'INTEGER', 'active and completed'),
    col('validation_reward_amount', 'HUGEINT', 'rewards.validationRewardAmount, nAVAX'),
    col('delegation_reward_amount', 'HUGEINT', 'rewards.delegationRewardAmount, nAVAX'),
    col('reward_addresses', 'VARCHAR[]', 'rewards.rewardAddresses'),
    col('reward_tx_hash', 'VARCHAR', 'rewards.rewardTxHash'),
    col('stake_percentage', 'DOUBLE', 'active: percent of the active stake'),
    col('uptime_performance', 'DOUBLE', 'active: percent'),
    col('potential_rewards', 'JSON', 'active: {validationRewardAmount, delegationRewardAmount} as sent (decimal text, nAVAX)'),
    col('validator_health', 'JSON', 'active: open object (reachabilityPercent, benched*RequestsPercent, ...)'),
    col('geolocation', 'JSON', 'active: {city, country, countryCode, latitude, longitude}; NULL when the service sends null'),
    col('remove_tx_hash', 'VARCHAR', 'removed'),
    col('remove_timestamp', 'BIGINT', 'removed'),
    col('last_seen_at', 'BIGINT', 'epoch seconds of the run snapshot'),
    // Appended after last_seen_at so a migrated warehouse (ALTER TABLE ADD COLUMN) has the same column order as a new one.
    added(col('avalanche_go_version', 'VARCHAR', 'active: e.g. avalanchego/1.13.0')),
    added(col('delegation_capacity', 'HUGEINT', 'active: nAVAX that may still be delegated')),
  ],
  primaryKey: ['network', 'node_id', 'tx_hash'],
  merge: 'upsert',
  export: { partitionBy: ['network'] },
};

export const pnValidatorStatusHistoryTable: TableDef = {
  name: 'pn_validator_status_history',
  comment:
    'SCD2 history of validation_status per validation: a row per status period; valid_from = snapshot that first saw it, valid_to = snapshot that saw it change (NULL = current).',
  columns: [
    col('network', 'VARCHAR'),
    col('node_id', 'VARCHAR'),
    col('tx_hash', 'VARCHAR'),
    col('valid_from', 'BIGINT', 'epoch seconds'),
    col('valid_to', 'BIGINT', 'epoch seconds; NULL while current'),
    col('validation_status', 'VARCHAR'),
    col('subnet_id', 'VARCHAR'),
  ],
  primaryKey: ['network', 'node_id', 'tx_hash', 'valid_from'],
  merge: 'scd2',
  scd2: { key: ['network', 'node_id', 'tx_hash'], tracked: ['validation_status'] },
  export: { partitionBy: ['network'] },
};

export const pnValidators: StreamDef<Validator> = {
  name: 'pn.validators',
  endpoint: 'GET /v1/networks/{network}/validators',
  mode: 'snapshot-merge',
  walks: endpoints.primaryNetwork.listValidators,
  tables: [pnValidatorsTable, pnValidatorStatusHistoryTable],
  partitions: (config) => config.networks.map((n) => ({ stream: 'pn.validators' as const, id: partitionId('pn.validators', n.network), network: n.network, params: { network: n.network } })),
  // A sync reads what can still change: active, the ones open at the last walk, the new ones (validatorWalk.ts).
  fetchPage: fetchValidatorPage,
  normalize: (page, ctx) => {
    const network = String(ctx.partition.params.network);
    const snapshot = BigInt(ctx.snapshotAt);
    return {
      pn_validators: page.items.map((v) => ({
        network,
        node_id: v.nodeId,
        tx_hash: v.txHash ?? '',
        subnet_id: str(v.subnetId),
        validation_status: str(v.validationStatus),
        amount_staked: huge(v.amountStaked),
        amount_delegated: huge(v.amountDelegated),
        delegation_fee: str(v.delegationFee),
        start_timestamp: i64(v.startTimestamp),
        end_timestamp: i64(v.endTimestamp),
        bls_public_key: str(v.blsCredentials?.publicKey),
        bls_proof_of_possession: str(v.blsCredentials?.proofOfPossession),
        delegator_count: int(v.delegatorCount),
        validation_reward_amount: huge(v.rewards?.validationRewardAmount),
        delegation_reward_amount: huge(v.rewards?.delegationRewardAmount),
        reward_addresses: strs(v.rewards?.rewardAddresses),
        reward_tx_hash: str(v.rewards?.rewardTxHash),
        stake_percentage: dbl(v.stakePercentage),
        uptime_performance: dbl(v.uptimePerformance),
        potential_rewards: json(v.potentialRewards),
        validator_health: json(v.validatorHealth),
        geolocation: json(v.geolocation),
        remove_tx_hash: str(v.removeTxHash),
        remove_timestamp: i64(v.removeTimestamp),
        last_seen_at: snapshot,
        avalanche_go_version: str(v.avalancheGoVersion),
        delegation_capacity: huge(v.delegationCapacity),
      })),
      pn_validator_status_history: page.items.map((v) => ({
        network,
        node_id: v.nodeId,
        tx_hash: v.txHash ?? '',
        valid_from: snapshot,
        valid_to: null,
        validation_status: str(v.validationStatus),
        subnet_id: str(v.subnetId),
      })),
    };
  },
};
