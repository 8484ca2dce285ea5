-- Historical staking rewards per reward address and asset, largest first (amounts in whole units of the asset's denomination).
SELECT r.network, r.address, coalesce(r.asset_symbol, r.asset_id) AS asset, r.rewards,
       CAST(r.amount AS DOUBLE) / pow(10, coalesce(d.denomination, 9)) AS amount
FROM v_pn_rewards_per_address r
LEFT JOIN (SELECT reward_asset_id AS asset_id, any_value(reward_asset_denomination) AS denomination FROM pn_rewards GROUP BY ALL) d USING (asset_id)
ORDER BY amount DESC, r.address
LIMIT 50;
