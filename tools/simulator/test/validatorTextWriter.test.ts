import { describe, expect, it } from 'vitest';
import { PRIMARY_NETWORK_ID } from '../primary/chains.ts';
import { PrimaryWorld } from '../primary/primaryWorld.ts';
import { validatorJsonText, validatorSet, validatorTemplate } from '../primary/validatorQuery.ts';
import { WORLD_SIZES } from '../world/size.ts';

describe('validator JSON writer', () => {
  it('spells exactly the template object, for every validation in every status', () => {
    for (const [size, network] of [['tiny', 'mainnet'], ['tiny', 'fuji'], ['small', 'mainnet'], ['small', 'fuji']] as const) {
      const gen = new PrimaryWorld(11, WORLD_SIZES[size]).network(network);
      const starts = gen.validations.map((v) => v.start);
      // Before, during and after the history: pending, active, completed and removed validations.
      const times = [Math.min(...starts) - 1, Math.min(...starts) + 86_400 * 20, gen.now, gen.now + 86_400 * 400];
      const statuses = new Set<unknown>();
      for (const now of times) {
        const set = validatorSet(gen.validations, now);
        for (const v of gen.validations) {
          const template = validatorTemplate(v, set);
          statuses.add(template.validationStatus);
          expect(validatorJsonText(v, set)).toBe(JSON.stringify(template));
        }
      }
      expect([...statuses].sort(), `${size} ${network}`).toEqual(['active', 'completed', 'pending', 'removed']);
    }
  });

  it('every world size has every status at its head, and active entries with and without geolocation', () => {
    for (const size of ['tiny', 'small'] as const) {
      const geolocations = new Set<string>();
      for (const network of ['mainnet', 'fuji'] as const) {
        const gen = new PrimaryWorld(11, WORLD_SIZES[size]).network(network);
        const set = validatorSet(gen.validations, gen.now);
        const entries = gen.validations.map((v) => validatorTemplate(v, set));
        expect([...new Set(entries.map((e) => e.validationStatus))].sort(), `${size} ${network}`).toEqual(['active', 'completed', 'pending', 'removed']);
        for (const e of entries) if (e.validationStatus === 'active') geolocations.add(e.geolocation === null ? 'null' : 'object');
        // The active entries of a subnet share its active stake: their percentages add up to 100.
        const primary = entries.filter((e) => e.validationStatus === 'active' && e.subnetId === PRIMARY_NETWORK_ID);
        expect(primary.reduce((s, e) => s + (e.stakePercentage as number), 0)).toBeCloseTo(100, 2);
      }
      expect([...geolocations].sort(), size).toEqual(['null', 'object']);
    }
  });
});
