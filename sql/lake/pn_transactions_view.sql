-- pn_transactions as the warehouse holds it, from the lake (layout 3): the files' rows, with each
-- staking row's reward_tx_hash taken from pn_transaction_rewards (activities/warehouse/lakeViews.ts,
-- docs/schema.md "Reading the lake"). {base} and {pn_transaction_rewards} name the two tables' files.
SELECT b.* REPLACE (CASE WHEN r.tx_hash IS NULL THEN b.reward_tx_hash ELSE r.reward_tx_hash END AS reward_tx_hash)
FROM {base} AS b
LEFT JOIN {pn_transaction_rewards} AS r
  ON r.network = b.network AND r.blockchain_id = b.blockchain_id AND r.tx_hash = b.tx_hash
