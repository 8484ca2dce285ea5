-- Validations per status at each snapshot the SCD2 history knows: a period [valid_from, valid_to)
-- covers every snapshot time t with valid_from <= t < valid_to (valid_to NULL = still current).
WITH times AS (
  SELECT valid_from AS t FROM pn_validator_status_history
  UNION
  SELECT valid_to FROM pn_validator_status_history WHERE valid_to IS NOT NULL
)
SELECT strftime(timezone('UTC', to_timestamp(times.t)), '%Y-%m-%dT%H:%M:%SZ') AS at,
       coalesce(h.validation_status, 'unknown') AS status,
       CAST(count(*) AS DOUBLE) AS validations
FROM times
JOIN pn_validator_status_history h ON h.valid_from <= times.t AND (h.valid_to IS NULL OR h.valid_to > times.t)
GROUP BY times.t, status
ORDER BY times.t, status;
