-- Nightly verify of one EVM chain's changed block window [$2, $3] (the blocks of the evm_blocks
-- partitions commits changed since the last verify), joined to its stored neighbours: gaps and broken
-- parent links inside [$2 - 1, $3 + 1], and a missing neighbour block just below or above the window
-- while older or newer blocks are stored (a gap to the untouched history). Reads the window's rows
-- only (block_number zone maps), plus an EXISTS probe on each side.
WITH slice AS (
  SELECT block_number, parent_hash,
         lag(block_number) OVER (ORDER BY block_number) AS prev_block,
         lag(block_hash) OVER (ORDER BY block_number) AS prev_hash
  FROM evm_blocks
  WHERE chain_id = $1 AND block_number BETWEEN $2 - 1 AND $3 + 1
)
SELECT 'gap' AS problem, (prev_block + 1)::VARCHAR AS from_block, (block_number - 1)::VARCHAR AS to_block FROM slice WHERE prev_block IS NOT NULL AND block_number <> prev_block + 1
UNION ALL
SELECT 'link', block_number::VARCHAR, block_number::VARCHAR FROM slice WHERE block_number = prev_block + 1 AND parent_hash IS DISTINCT FROM prev_hash
UNION ALL
SELECT 'gap', 'below', ($2 - 1)::VARCHAR
WHERE NOT EXISTS (SELECT 1 FROM slice WHERE block_number = $2 - 1)
  AND EXISTS (SELECT 1 FROM evm_blocks WHERE chain_id = $1 AND block_number < $2 - 1)
UNION ALL
SELECT 'gap', ($3 + 1)::VARCHAR, 'above'
WHERE NOT EXISTS (SELECT 1 FROM slice WHERE block_number = $3 + 1)
  AND EXISTS (SELECT 1 FROM evm_blocks WHERE chain_id = $1 AND block_number > $3 + 1);
