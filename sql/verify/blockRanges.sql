-- Stored block range per EVM chain.
SELECT chain_id, min(block_number) AS first_block, max(block_number) AS last_block, count(*) AS blocks
FROM evm_blocks
GROUP BY chain_id
ORDER BY chain_id;
