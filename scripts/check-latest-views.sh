#!/usr/bin/env bash
# The latest snapshot views after growth, from the command line: backfill a simulated world, grow it
# and sync (once per step count), then check that verify is green and that the `*_latest` views equal
# the API's answer, so a snapshot the growth emptied (a balance sold off, atomic memory imported)
# reads as empty. test/warehouse/emptiedSnapshotsLatest.test.ts runs the same cases through the sync core.
#   bash scripts/check-latest-views.sh <seed> <steps[,steps...]> [size]
#   e.g. bash scripts/check-latest-views.sh 4242 400; bash scripts/check-latest-views.sh 11 200,200
set -euo pipefail
seed=${1:?seed}; steps=${2:?steps}; size=${3:-small}
cd "$(dirname "$0")/.."
dir=$(mktemp -d /tmp/glacier-latest-views-XXXX)
cli="node bin/glacier-etl.js"
$cli simulator --size "$size" --seed "$seed" --no-rate-limits >"$dir/sim.log" 2>&1 &
sim=$!
trap 'kill $sim 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do grep -q metrics "$dir/sim.log" 2>/dev/null && break; sleep 0.3; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/sim.log" | sed -n 1p)
metrics=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/sim.log" | sed -n 2p)
echo "simulator: $base (metrics $metrics), world $size seed $seed"
npx tsx test/helpers/configForSimulator.ts "$base" "$metrics" "$dir/data" >"$dir/config.yaml"
export GLACIER_CONFIG="$dir/config.yaml" LOG_LEVEL=warn
# Atomic-memory balances and ERC-20 balances, every snapshot, then what the latest views say.
stored="SELECT 'pn_balances' AS tbl, blockchain_id AS scope, snapshot_at, kind AS item, CAST(amount AS VARCHAR) AS value FROM pn_balances WHERE kind LIKE 'atomicMemory%'
  UNION ALL SELECT 'evm_erc20_balances', chain_id || ' ' || address, snapshot_at, token_address, balance FROM evm_erc20_balances ORDER BY ALL"
latest="SELECT 'v_pn_balances_latest' AS view, blockchain_id AS scope, snapshot_at, kind AS item, CAST(amount AS VARCHAR) AS value FROM v_pn_balances_latest WHERE kind LIKE 'atomicMemory%'
  UNION ALL SELECT 'v_evm_erc20_balances_latest', chain_id || ' ' || address, snapshot_at, token_address, balance FROM v_evm_erc20_balances_latest ORDER BY ALL"
echo '$ glacier-etl backfill --no-export'; $cli backfill --no-export
for n in ${steps//,/ }; do
  echo "\$ curl -X POST $base/admin/advance -d '{\"steps\":$n}'"; curl -s -X POST "$base/admin/advance" -H 'content-type: application/json' -d "{\"steps\":$n}"; echo
  echo '$ glacier-etl sync --no-export'; $cli sync --no-export
done
echo '$ glacier-etl verify'; $cli verify || true
echo '$ glacier-etl sql "<atomic-memory and ERC-20 balances, every snapshot>"'; $cli sql "$stored"
echo '$ glacier-etl sql "<the same from the latest views>"'; $cli sql "$latest"
echo '$ latest views against the API'; npx tsx test/helpers/latestAgainstApi.ts "$base" "$metrics" "$dir/config.yaml"
