/**
 * Precomputes the simulator's BLS credentials table (simulator/primary/blsTable.bin): for key index
 * i, the 48-byte public key and 96-byte proof of possession of the secret key BlsKey.secretForIndex(i).
 * Computing a proof of possession costs tens of milliseconds, and validator lists show thousands of
 * them, so the simulator reads this table instead. Run: npx tsx simulator/primary/generateBlsTable.ts
 */
import { writeFileSync } from 'node:fs';
import { BlsKey, BLS_TABLE_SIZE, BLS_TABLE_PATH } from './blsKeys.ts';

const out = Buffer.alloc(BLS_TABLE_SIZE * 144);
for (let i = 0; i < BLS_TABLE_SIZE; i++) {
  const { publicKey, proofOfPossession } = BlsKey.computeCredentials(BlsKey.secretForIndex(i));
  out.set(publicKey, i * 144);
  out.set(proofOfPossession, i * 144 + 48);
  if (i % 256 === 255) console.log(`${i + 1}/${BLS_TABLE_SIZE}`);
}
writeFileSync(BLS_TABLE_PATH, out);
console.log(`wrote ${BLS_TABLE_PATH}`);
