-- What is loaded per chain of the chain-wide tables: rows, block range and time range (UTC).
WITH ranges AS (
  SELECT 'evm_blocks' AS table_name, chain_id AS chain, count(*) AS rows, min(block_number) AS first_block, max(block_number) AS last_block,
         min(block_timestamp) AS first_ts, max(block_timestamp) AS last_ts
  FROM evm_blocks GROUP BY chain_id
  UNION ALL
  SELECT 'evm_transactions', chain_id, count(*), min(block_number), max(block_number), min(block_timestamp), max(block_timestamp)
  FROM evm_transactions GROUP BY chain_id
  UNION ALL
  SELECT 'evm_token_transfers', chain_id, count(*), min(block_number), max(block_number), min(block_timestamp), max(block_timestamp)
  FROM evm_token_transfers GROUP BY chain_id
  UNION ALL
  SELECT 'pn_transactions', network || ' ' || blockchain_id, count(*), NULL, NULL, min(block_timestamp), max(block_timestamp)
  FROM pn_transactions GROUP BY network, blockchain_id
)
SELECT table_name, chain, rows, first_block, last_block,
       strftime(timezone('UTC', to_timestamp(first_ts)), '%Y-%m-%dT%H:%M:%SZ') AS first_time,
       strftime(timezone('UTC', to_timestamp(last_ts)), '%Y-%m-%dT%H:%M:%SZ') AS last_time
FROM ranges
ORDER BY table_name, chain;
