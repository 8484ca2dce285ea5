-- Busiest days per EVM chain, with value moved in the native token (18 decimals).
SELECT chain_id, day, tx_count, senders, value_wei / 1e18 AS value_native
FROM v_evm_daily_transactions
ORDER BY tx_count DESC
LIMIT 20;
