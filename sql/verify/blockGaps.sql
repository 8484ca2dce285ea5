-- Missing block numbers per EVM chain: ranges between consecutive stored blocks that are not adjacent.
SELECT chain_id, prev_block + 1 AS gap_from, block_number - 1 AS gap_to
FROM (
  SELECT chain_id, block_number, lag(block_number) OVER (PARTITION BY chain_id ORDER BY block_number) AS prev_block
  FROM evm_blocks
)
WHERE prev_block IS NOT NULL AND block_number <> prev_block + 1
ORDER BY chain_id, gap_from
LIMIT 20;
