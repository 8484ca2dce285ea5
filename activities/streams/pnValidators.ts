import { endpoints } from '../api/endpoints/index.ts';
import type { Validator } from '../api/schemas/index.ts';
import { added, bigint, defineTable, double, hugeint, integer, json, snapshotAt, varchar, varcharList } from './columns.ts';
import { partitionId } from './partitionIds.ts';
import { defineStream, rowsOf } from './streamDef.ts';
import { networkColumn } from './shared/rewardPartitions.ts';
import { fetchValidatorPage, validatorCursor } from './validatorWalk.ts';

export const pnValidatorsTable = defineTable<Validator>({
  name: 'pn_validators',
  comment:
    'Validations (Validator) of each network, every uptime, current state; upserted by (network, node_id, tx_hash); a sync reads only validations that can have changed (active, pending, newly final), so last_seen_at is the last run that listed the row. Per-status fields of the public service (active: stake_percentage, delegator_count, amount_delegated, uptime_performance, avalanche_go_version, delegation_capacity, potential_rewards, validator_health, geolocation; completed: delegator_count, amount_delegated, rewards; removed: remove_tx_hash, remove_timestamp; pending: common fields only) are NULL where the status does not carry them. blsCredentials and rewards flattened; potentialRewards, validatorHealth, geolocation as JSON. History of validation_status in pn_validator_status_history.',
  columns: [
    networkColumn(),
    varchar('node_id', (v) => v.nodeId),
    varchar('tx_hash', (v) => v.txHash ?? '', 'staking tx; empty string when absent (part of the key)'),
    varchar('subnet_id', (v) => v.subnetId),
    varchar('validation_status', (v) => v.validationStatus, 'completed, active, pending, removed; other values as sent'),
    hugeint('amount_staked', (v) => v.amountStaked, 'nAVAX'),
    hugeint('amount_delegated', (v) => v.amountDelegated, 'nAVAX; active and completed'),
    varchar('delegation_fee', (v) => v.delegationFee, 'percent, decimal text as sent'),
    bigint('start_timestamp', (v) => v.startTimestamp),
    bigint('end_timestamp', (v) => v.endTimestamp),
    varchar('bls_public_key', (v) => v.blsCredentials?.publicKey),
    varchar('bls_proof_of_possession', (v) => v.blsCredentials?.proofOfPossession),
    integer('delegator_count', (v) => v.delegatorCount, 'active and completed'),
    hugeint('validation_reward_amount', (v) => v.rewards?.validationRewardAmount, 'rewards.validationRewardAmount, nAVAX'),
    hugeint('delegation_reward_amount', (v) => v.rewards?.delegationRewardAmount, 'rewards.delegationRewardAmount, nAVAX'),
    varcharList('reward_addresses', (v) => v.rewards?.rewardAddresses, 'rewards.rewardAddresses'),
    varchar('reward_tx_hash', (v) => v.rewards?.rewardTxHash, 'rewards.rewardTxHash'),
    double('stake_percentage', (v) => v.stakePercentage, 'active: percent of the active stake'),
    double('uptime_performance', (v) => v.uptimePerformance, 'active: percent'),
    json('potential_rewards', (v) => v.potentialRewards, 'active: {validationRewardAmount, delegationRewardAmount} as sent (decimal text, nAVAX)'),
    json('validator_health', (v) => v.validatorHealth, 'active: open object (reachabilityPercent, benched*RequestsPercent, ...)'),
    json('geolocation', (v) => v.geolocation, 'active: {city, country, countryCode, latitude, longitude}; NULL when the service sends null'),
    varchar('remove_tx_hash', (v) => v.removeTxHash, 'removed'),
    bigint('remove_timestamp', (v) => v.removeTimestamp, 'removed'),
    snapshotAt('last_seen_at'),
    // Appended after last_seen_at so a migrated warehouse (ALTER TABLE ADD COLUMN) has the same column order as a new one.
    added(varchar('avalanche_go_version', (v) => v.avalancheGoVersion, 'active: e.g. avalanchego/1.13.0')),
    added(hugeint('delegation_capacity', (v) => v.delegationCapacity, 'active: nAVAX that may still be delegated')),
  ],
  primaryKey: ['network', 'node_id', 'tx_hash'],
  touch: ['last_seen_at'],
  export: { partitionBy: ['network'] },
});

export const pnValidatorStatusHistoryTable = defineTable<Validator>({
  name: 'pn_validator_status_history',
  comment:
    'SCD2 history of validation_status per validation: a row per status period; valid_from = snapshot that first saw it, valid_to = snapshot that saw it change (NULL = current).',
  columns: [
    networkColumn(),
    varchar('node_id', (v) => v.nodeId),
    varchar('tx_hash', (v) => v.txHash ?? ''),
    snapshotAt('valid_from', 'epoch seconds'),
    bigint('valid_to', () => null, 'epoch seconds; NULL while current'),
    varchar('validation_status', (v) => v.validationStatus),
    varchar('subnet_id', (v) => v.subnetId),
  ],
  primaryKey: ['network', 'node_id', 'tx_hash', 'valid_from'],
  merge: 'scd2',
  scd2: { key: ['network', 'node_id', 'tx_hash'], tracked: ['validation_status'] },
  export: { partitionBy: ['network'] },
});

export const pnValidators = defineStream({
  name: 'pn.validators',
  mode: 'snapshot-merge',
  walks: endpoints.primaryNetwork.listValidators,
  // A sync reads what can still change: active, the ones open at the last walk, the new ones (validatorWalk.ts).
  fetchPage: fetchValidatorPage,
  cursor: validatorCursor,
  sources: [rowsOf(pnValidatorsTable), rowsOf(pnValidatorStatusHistoryTable)],
  partitions: (config) => config.networks.map((n) => ({ stream: 'pn.validators' as const, id: partitionId('pn.validators', n.network), network: n.network, params: { network: n.network } })),
});
