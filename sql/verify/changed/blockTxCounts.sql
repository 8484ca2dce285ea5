-- Nightly: blocks of one chain's changed window [$2, $3] whose txCount disagrees with the stored
-- transactions, within the part of the window the chain-wide transaction stream covers (the lowest
-- to the highest transaction block stored in the window). Reads the window's rows only.
WITH txs AS (
  SELECT block_number, count(*) AS n FROM evm_transactions
  WHERE chain_id = $1 AND block_number BETWEEN $2 AND $3
  GROUP BY block_number
),
covered AS (SELECT min(block_number) AS lo, max(block_number) AS hi FROM txs)
SELECT b.block_number, b.tx_count, coalesce(t.n, 0) AS stored_txs
FROM evm_blocks b
JOIN covered c ON b.block_number BETWEEN c.lo AND c.hi
LEFT JOIN txs t ON t.block_number = b.block_number
WHERE b.chain_id = $1 AND b.block_number BETWEEN $2 AND $3 AND b.tx_count <> coalesce(t.n, 0)
ORDER BY b.block_number
LIMIT 20;
