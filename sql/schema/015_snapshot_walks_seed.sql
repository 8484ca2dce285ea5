-- Migration for warehouses written before _glacier_snapshot_walks existed: every snapshot they hold
-- is taken as a finished walk of what its rows name, so the *_latest views keep reading them until the
-- next sync records real walks (empty ones included). Snapshots newer than the stream's last finished
-- checkpoint are left out: they belong to a walk that never finished. A stream that already has
-- recorded walks is not seeded (on a new warehouse every table is empty, so nothing is).

INSERT OR IGNORE INTO _glacier_snapshot_walks
SELECT 'evm.native_balances', 'seeded/' || chain_id || '/' || address, snapshot_at, json_object('chainId', chain_id, 'addresses', [address]), 'seeded', count(*), 0, now()
FROM evm_native_balances
WHERE NOT EXISTS (SELECT 1 FROM _glacier_snapshot_walks WHERE stream = 'evm.native_balances')
  AND snapshot_at <= (SELECT max(CAST(cursor->>'snapshotAt' AS BIGINT)) FROM _glacier_checkpoints WHERE complete AND stream LIKE 'evm.%_balances')
GROUP BY chain_id, address, snapshot_at;

INSERT OR IGNORE INTO _glacier_snapshot_walks
SELECT 'evm.erc20_balances', 'seeded/' || chain_id || '/' || address, snapshot_at, json_object('chainId', chain_id, 'address', address), 'seeded', count(*), 0, now()
FROM evm_erc20_balances
WHERE NOT EXISTS (SELECT 1 FROM _glacier_snapshot_walks WHERE stream = 'evm.erc20_balances')
  AND snapshot_at <= (SELECT max(CAST(cursor->>'snapshotAt' AS BIGINT)) FROM _glacier_checkpoints WHERE complete AND stream = 'evm.erc20_balances')
GROUP BY chain_id, address, snapshot_at;

INSERT OR IGNORE INTO _glacier_snapshot_walks
SELECT 'evm.erc721_balances', 'seeded/' || chain_id || '/' || address, snapshot_at, json_object('chainId', chain_id, 'address', address), 'seeded', count(*), 0, now()
FROM evm_erc721_balances
WHERE NOT EXISTS (SELECT 1 FROM _glacier_snapshot_walks WHERE stream = 'evm.erc721_balances')
  AND snapshot_at <= (SELECT max(CAST(cursor->>'snapshotAt' AS BIGINT)) FROM _glacier_checkpoints WHERE complete AND stream = 'evm.erc721_balances')
GROUP BY chain_id, address, snapshot_at;

INSERT OR IGNORE INTO _glacier_snapshot_walks
SELECT 'evm.erc1155_balances', 'seeded/' || chain_id || '/' || address, snapshot_at, json_object('chainId', chain_id, 'address', address), 'seeded', count(*), 0, now()
FROM evm_erc1155_balances
WHERE NOT EXISTS (SELECT 1 FROM _glacier_snapshot_walks WHERE stream = 'evm.erc1155_balances')
  AND snapshot_at <= (SELECT max(CAST(cursor->>'snapshotAt' AS BIGINT)) FROM _glacier_checkpoints WHERE complete AND stream = 'evm.erc1155_balances')
GROUP BY chain_id, address, snapshot_at;

INSERT OR IGNORE INTO _glacier_snapshot_walks
SELECT 'pn.balances', 'seeded/' || network || '/' || blockchain_id || '/' || md5(address_set), snapshot_at,
       json_object('network', network, 'blockchainId', blockchain_id, 'addresses', string_split(address_set, ',')), 'seeded', count(*), 0, now()
FROM pn_balances
WHERE NOT EXISTS (SELECT 1 FROM _glacier_snapshot_walks WHERE stream = 'pn.balances')
  AND snapshot_at <= (SELECT max(CAST(cursor->>'snapshotAt' AS BIGINT)) FROM _glacier_checkpoints WHERE complete AND stream = 'pn.balances')
GROUP BY network, blockchain_id, address_set, snapshot_at;

INSERT OR IGNORE INTO _glacier_snapshot_walks
SELECT 'metrics.holders', 'seeded/' || chain_id || '/' || contract_address || '/' || threshold, snapshot_at,
       json_object('chainId', chain_id, 'address', contract_address, 'threshold', threshold), 'seeded', count(*), 0, now()
FROM metrics_holders
WHERE NOT EXISTS (SELECT 1 FROM _glacier_snapshot_walks WHERE stream = 'metrics.holders')
  AND snapshot_at <= (SELECT max(CAST(cursor->>'snapshotAt' AS BIGINT)) FROM _glacier_checkpoints WHERE complete AND stream = 'metrics.holders')
GROUP BY chain_id, contract_address, threshold, snapshot_at;

-- Pending rewards do not name their partition: a seeded walk covers the whole network (no addresses, no node ids).
INSERT OR IGNORE INTO _glacier_snapshot_walks
SELECT 'pn.pending_rewards', 'seeded/' || network, snapshot_at, json_object('network', network), 'seeded', count(*), 0, now()
FROM pn_pending_rewards
WHERE NOT EXISTS (SELECT 1 FROM _glacier_snapshot_walks WHERE stream = 'pn.pending_rewards')
  AND snapshot_at <= (SELECT max(CAST(cursor->>'snapshotAt' AS BIGINT)) FROM _glacier_checkpoints WHERE complete AND stream = 'pn.pending_rewards')
GROUP BY network, snapshot_at;
