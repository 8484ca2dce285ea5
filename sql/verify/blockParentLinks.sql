-- Adjacent blocks whose parent_hash is not the previous block's hash (a fork or corrupted row).
SELECT chain_id, block_number
FROM (
  SELECT chain_id, block_number, parent_hash,
         lag(block_hash) OVER (PARTITION BY chain_id ORDER BY block_number) AS prev_hash,
         lag(block_number) OVER (PARTITION BY chain_id ORDER BY block_number) AS prev_block
  FROM evm_blocks
)
WHERE block_number = prev_block + 1 AND parent_hash IS DISTINCT FROM prev_hash
ORDER BY chain_id, block_number
LIMIT 20;
