import { describe, expect, it } from 'vitest';
import { DRIFT_PAUSED_STATUS } from '../../tools/simulator/http/drift.ts';
import { runWaves, startHarness, truth } from './harness.ts';

/**
 * Issue 40: a validation the service lists in a status this release does not know (`paused`: the
 * simulator's drift lists some active validations so) is not final. pn.validators follows it like a
 * pending one, so when it completes the next sync reads it completed. Both ways a sync walks the
 * list: whole (a short list), and by steps (active, open ones by node id, the newest).
 */
const VALIDATORS = '/v1/networks/mainnet/validators';
type Listed = { txHash: string; nodeId: string; validationStatus: string; endTimestamp: number };

describe.each([
  ['the whole list', 25],
  ['the steps', 2],
])('a validation moved through a new status to completed, a sync reading %s', (_walk, pageSize) => {
  it('reads completed after the next sync', async () => {
    const h = await startHarness({
      // Drift from step 1: the backfill sees the statuses of the interface only.
      sim: { drift: { fromStep: 1, typeChanges: false } },
      config: () => ({ streams: ['pn.validators'], networks: [{ network: 'mainnet', chains: ['p-chain'] }] }),
      pageSize,
    });
    try {
      const listed = async () => (await truth(h.sim, VALIDATORS, { minUptimePerformance: '0' })) as unknown as Listed[];
      const status = async (v: Listed) =>
        String((await h.warehouse.query(`SELECT validation_status FROM pn_validators WHERE tx_hash = '${v.txHash}' AND node_id = '${v.nodeId}'`))[0]?.validation_status);
      await runWaves(h, 'backfill', 'r1', 1_800_000_000);
      h.sim.advance(1);
      const paused = (await listed()).filter((v) => v.validationStatus === DRIFT_PAUSED_STATUS).sort((a, b) => a.endTimestamp - b.endTimestamp)[0];
      expect(paused, 'the drift lists a validation paused').toBeDefined();
      expect(await status(paused)).toBe('active');
      await runWaves(h, 'sync', 'r2', 1_800_000_100);
      expect(await status(paused)).toBe(DRIFT_PAUSED_STATUS);
      // The world moves on until the validation has ended: the service lists it completed.
      for (let i = 0; i < 1000 && (await listed()).find((v) => v.txHash === paused.txHash)?.validationStatus !== 'completed'; i++) h.sim.advance(1);
      expect((await listed()).find((v) => v.txHash === paused.txHash)?.validationStatus).toBe('completed');
      // The service sends no unknown field any more: a sync leaves out the items it takes for stored
      // (an item with unmapped fields is always written), so only following the validation reads it.
      h.sim.setDrift(undefined);
      await runWaves(h, 'sync', 'r3', 1_800_000_200);
      expect(await status(paused)).toBe('completed');
      const history = await h.warehouse.query(`SELECT validation_status FROM pn_validator_status_history WHERE tx_hash = '${paused.txHash}' ORDER BY valid_from`);
      expect(history.map((r) => r.validation_status)).toEqual(['active', DRIFT_PAUSED_STATUS, 'completed']);
    } finally {
      await h.close();
    }
  }, 300_000);
});
