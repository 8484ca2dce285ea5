-- Transactions per chain and UTC day: EVM chains, then primary-network chains.
SELECT 'evm ' || chain_id AS chain, strftime(day, '%Y-%m-%d') AS day, CAST(sum(tx_count) AS DOUBLE) AS transactions
FROM v_evm_daily_transactions
GROUP BY ALL
UNION ALL
SELECT network || ' ' || blockchain_id, strftime(day, '%Y-%m-%d'), CAST(sum(tx_count) AS DOUBLE)
FROM v_pn_daily_transactions
GROUP BY ALL
ORDER BY chain, day;
