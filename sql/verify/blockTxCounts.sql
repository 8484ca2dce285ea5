-- Blocks whose txCount disagrees with the transactions stored for them, within the block range the
-- chain-wide transaction stream covers (the per-address lists only hold some of a block's txs).
WITH covered AS (
  SELECT chain_id, min(block_number) AS lo, max(block_number) AS hi
  FROM evm_transactions
  WHERE chain_id IN (SELECT DISTINCT chain_id FROM evm_blocks)
  GROUP BY chain_id
),
stored AS (
  SELECT chain_id, block_number, count(*) AS txs FROM evm_transactions GROUP BY chain_id, block_number
)
SELECT b.chain_id, b.block_number, b.tx_count, coalesce(s.txs, 0) AS stored_txs
FROM evm_blocks b
JOIN covered c ON c.chain_id = b.chain_id AND b.block_number BETWEEN c.lo AND c.hi
LEFT JOIN stored s ON s.chain_id = b.chain_id AND s.block_number = b.block_number
WHERE b.tx_count <> coalesce(s.txs, 0)
ORDER BY b.chain_id, b.block_number
LIMIT 20;
