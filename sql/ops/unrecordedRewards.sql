-- pn.rewards in a sync that walked the P-chain's transactions (activities/streams/rewardSkip.ts):
-- the reward outputs of the stored RewardValidatorTx that belong to one reward partition and have no
-- pn_rewards row yet. A reward is paid by a RewardValidatorTx: each output with a rewardType is one
-- item of the historical reward list (the list's addresses are the output's, its node is the node of
-- the staking transaction the reward tx names). Zero: every reward the warehouse knows of is stored,
-- so the list of that partition has nothing new up to the transaction walk's top.
--   $1 network, $2 the P-chain's blockchain id as stored, $3 the partition's addresses (comma-separated,
--   '' for none), $4 its node ids (comma-separated, '' for none)
WITH rewards AS (
  SELECT u.utxo_id, u.addresses, s.node_id
  FROM pn_transactions AS t
  JOIN pn_transaction_utxos AS u
    ON u.network = t.network AND u.blockchain_id = t.blockchain_id AND u.tx_hash = t.tx_hash
   AND u.direction = 'emitted' AND u.reward_type IS NOT NULL
  LEFT JOIN pn_transactions AS s
    ON s.network = t.network AND s.blockchain_id = t.blockchain_id AND s.tx_hash = t.staking_tx_hash
  WHERE t.network = $1 AND t.blockchain_id = $2 AND t.tx_type = 'RewardValidatorTx'
)
SELECT count(*) AS n
FROM rewards AS r
WHERE (
    ($3 <> '' AND list_has_any(r.addresses, list_transform(string_split($3, ','), x -> regexp_replace(x, '^[A-Za-z]-', ''))))
    -- A reward whose node cannot be told (staking transaction not stored) counts for every node set.
    OR ($4 <> '' AND (r.node_id IS NULL OR list_contains(string_split($4, ','), r.node_id)))
  )
  AND NOT EXISTS (SELECT 1 FROM pn_rewards AS w WHERE w.network = $1 AND w.utxo_id = r.utxo_id);
