-- Stake and delegation per validator (current validations), in AVAX (1 AVAX = 1e9 nAVAX), largest first.
SELECT network, node_id,
       CAST(coalesce(amount_staked_navax, 0) AS DOUBLE) / 1e9 AS staked_avax,
       CAST(coalesce(amount_delegated_navax, 0) AS DOUBLE) / 1e9 AS delegated_avax,
       coalesce(delegator_count, 0) AS delegators,
       coalesce(delegation_txs, 0) AS delegation_txs
FROM v_pn_stake_per_validator
WHERE amount_staked_navax IS NOT NULL
ORDER BY staked_avax DESC, node_id
LIMIT 50;
