import { describe, expect, it } from 'vitest';
import { PrimaryWorld } from '../../simulator/primary/primaryWorld.ts';
import { validatorJsonText, validatorTemplate } from '../../simulator/primary/validatorQuery.ts';
import { WORLD_SIZES } from '../../simulator/world/size.ts';

describe('validator JSON writer', () => {
  it('spells exactly the template object, for every validation in every status', () => {
    for (const network of ['mainnet', 'fuji'] as const) {
      const gen = new PrimaryWorld(11, WORLD_SIZES.small).network(network);
      const starts = gen.validations.map((v) => v.start);
      // Before, during and after the history: pending, active, completed and removed validations.
      const times = [Math.min(...starts) - 1, Math.min(...starts) + 86_400 * 20, gen.now, gen.now + 86_400 * 400];
      const statuses = new Set<unknown>();
      for (const now of times) {
        for (const v of gen.validations) {
          const template = validatorTemplate(v, now);
          statuses.add(template.validationStatus);
          expect(validatorJsonText(v, now)).toBe(JSON.stringify(template));
        }
      }
      expect([...statuses].sort()).toEqual(['active', 'completed', 'pending', 'removed']);
    }
  });
});
