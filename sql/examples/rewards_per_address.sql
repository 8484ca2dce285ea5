-- Staking rewards earned per address, in AVAX.
SELECT network, address, rewards, amount / 1e9 AS reward_avax
FROM v_pn_rewards_per_address
ORDER BY amount DESC
LIMIT 20;
