-- Balances recomputed from stored UTXOs against the balances endpoint's latest snapshot, per
-- (network, chain, address set, asset): the UTXOs the chain lists for those addresses that existed
-- and were unspent at the snapshot time must add up to every balance kind, atomic memory included
-- (UTXOs exported to this chain and not yet imported are listed for it too). The latest snapshot is
-- the last finished walk of the address set, an empty one included (its balance is then 0).
-- $1: epoch seconds; only address sets with a balances walk finished since then are checked (0: all;
-- nightly verify passes the time of the last verify without problems).
WITH touched AS (
  SELECT DISTINCT params->>'network' AS network, params->>'blockchainId' AS blockchain_id,
         array_to_string(CAST(params->'addresses' AS VARCHAR[]), ',') AS address_set
  FROM _glacier_snapshot_walks
  WHERE stream = 'pn.balances' AND completed_at >= to_timestamp($1)
),
latest AS (
  SELECT l.network, l.blockchain_id, l.address_set, l.snapshot_at
  FROM v_pn_balances_latest_walks l
  SEMI JOIN touched t ON t.network = l.network AND t.blockchain_id = l.blockchain_id AND t.address_set = l.address_set
),
balance AS (
  SELECT b.network, b.blockchain_id, b.address_set, b.asset_id, sum(b.amount) AS amount
  FROM pn_balances b
  -- pn_balances holds versions: the rows as of the snapshot (docs/schema.md).
  JOIN latest l ON l.network = b.network AND l.blockchain_id = b.blockchain_id AND l.address_set = b.address_set
   AND b.snapshot_at <= l.snapshot_at AND (b.valid_to IS NULL OR b.valid_to > l.snapshot_at)
  GROUP BY ALL
),
from_utxos AS (
  SELECT l.network, l.blockchain_id, l.address_set, u.asset_id, sum(u.amount) AS amount
  FROM latest l
  JOIN pn_utxos u
    ON u.network = l.network
   AND u.blockchain_id = l.blockchain_id
   AND list_has_any(u.addresses, string_split(l.address_set, ','))
   AND u.block_timestamp <= l.snapshot_at
   AND (u.consuming_tx_hash IS NULL OR u.consuming_block_timestamp > l.snapshot_at)
  GROUP BY ALL
)
SELECT coalesce(b.network, u.network) AS network,
       coalesce(b.blockchain_id, u.blockchain_id) AS blockchain_id,
       coalesce(b.address_set, u.address_set) AS address_set,
       coalesce(b.asset_id, u.asset_id) AS asset_id,
       coalesce(b.amount, 0) AS balance,
       coalesce(u.amount, 0) AS from_utxos
FROM balance b
FULL OUTER JOIN from_utxos u
  ON b.network = u.network AND b.blockchain_id = u.blockchain_id AND b.address_set = u.address_set AND b.asset_id = u.asset_id
ORDER BY 1, 2, 3, 4;
