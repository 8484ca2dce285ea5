import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTables } from '../../activities/streams/catalog.ts';
import { exportLake } from '../../activities/lake/export.ts';
import type { DuckLakeSettings, LakeSettings } from '../../activities/lake/settings.ts';
import { lakeOf } from '../../worker/paths.ts';
import { drainAll, startHarness, type Harness } from '../warehouse/harness.ts';

/**
 * A bad or unreachable catalog or bucket: the export fails with one line naming it, the night's
 * marks stay pending, and the next export (once the lake is reachable) applies them.
 */

let h: Harness;
const pending = async () => Number((await h.warehouse.query('SELECT count(*) AS n FROM _glacier_changed_partitions WHERE exported_seq IS DISTINCT FROM seq'))[0].n);

beforeAll(async () => {
  h = await startHarness({ config: (sim) => ({ streams: ['evm.blocks'], evmChains: [{ chainId: (sim.world.describe().evm as unknown as { chains: { chainId: string }[] }).chains[0].chainId }] }) });
  // As in a warehouse an export or verify read before (a new one marks nothing until then).
  await h.warehouse.startChangeMarks();
  await drainAll(h, h.config.streams);
}, 180_000);

afterAll(async () => {
  await h?.close();
});

describe('an unreachable lake', () => {
  it('fails in one line naming the catalog or the bucket, and the night stays pending for the next export', async () => {
    const marks = await pending();
    expect(marks).toBeGreaterThan(0);
    const good = lakeOf(h.config) as DuckLakeSettings;
    const notAFile = join(h.dir, 'a-directory');
    mkdirSync(notAFile);
    const bucket: LakeSettings = { ...good, dataPath: 's3://glacier-no-bucket/lake/', s3: { endpoint: '127.0.0.1:9', urlStyle: 'path', useSsl: false, region: 'us-east-1' } };
    const credentials = { AWS_ACCESS_KEY_ID: 'glacier-test', AWS_SECRET_ACCESS_KEY: 'glacier-test' };
    const bad: [LakeSettings, Record<string, string>, RegExp][] = [
      [{ ...good, catalog: `sqlite:${notAFile}` }, {}, new RegExp(`^lake catalog sqlite:${notAFile}: .+$`)],
      [bucket, {}, /^lake data path s3:\/\/glacier-no-bucket\/lake\/: no credentials from the AWS provider chain .+$/],
      [bucket, credentials, /^lake data path s3:\/\/glacier-no-bucket\/lake\/: .*(connect|resolve).+$/i],
    ];
    for (const [lake, env, message] of bad) {
      Object.assign(process.env, env);
      const error = await exportLake(h.warehouse, allTables(), lake).then(
        () => undefined,
        (e: Error) => e,
      );
      for (const k of Object.keys(env)) delete process.env[k];
      expect(error?.message).toMatch(message);
      expect(error?.message).not.toContain('\n');
      expect(await pending()).toBe(marks);
    }
    const r = await exportLake(h.warehouse, allTables(), good);
    expect(r.inserted).toBeGreaterThan(0);
    expect(await pending()).toBe(0);
  }, 180_000);
});
