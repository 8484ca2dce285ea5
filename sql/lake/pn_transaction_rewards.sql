-- pn_transaction_rewards (lake only, activities/streams/pnTransactions.ts): the reward transaction of
-- each staking row of pn_transactions, dated by the reward transaction's block time (NULL while that
-- transaction is not stored). The lake's pn_transactions files hold reward_tx_hash NULL.
SELECT s.network, s.blockchain_id, s.tx_hash, s.reward_tx_hash, r.block_timestamp AS reward_block_timestamp
FROM pn_transactions AS s
LEFT JOIN pn_transactions AS r ON r.network = s.network AND r.blockchain_id = s.blockchain_id AND r.tx_hash = s.reward_tx_hash
WHERE s.reward_tx_hash IS NOT NULL
