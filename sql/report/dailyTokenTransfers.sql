-- Token transfers per EVM chain and UTC day (all contracts).
SELECT 'evm ' || chain_id AS chain, strftime(day, '%Y-%m-%d') AS day, CAST(sum(transfers) AS DOUBLE) AS transfers
FROM v_evm_daily_token_transfers
GROUP BY ALL
ORDER BY chain, day;
