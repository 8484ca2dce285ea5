-- A newly stored RewardValidatorTx names its staking transaction; the API then shows that staking
-- transaction's rewardTxHash, so the stored staking row gets it too.
UPDATE pn_transactions AS t
SET reward_tx_hash = r.tx_hash
FROM {stage} AS r
WHERE r.staking_tx_hash IS NOT NULL
  AND t.network = r.network
  AND t.tx_hash = r.staking_tx_hash
  AND t.reward_tx_hash IS DISTINCT FROM r.tx_hash;
