-- Validators with the most stake (own + delegated), in AVAX.
SELECT network, node_id, validations, delegator_count,
       amount_staked_navax / 1e9 AS staked_avax,
       amount_delegated_navax / 1e9 AS delegated_avax
FROM v_pn_stake_per_validator
ORDER BY coalesce(amount_staked_navax, 0) + coalesce(amount_delegated_navax, 0) DESC
LIMIT 20;
