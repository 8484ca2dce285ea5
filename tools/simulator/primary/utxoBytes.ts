/**
 * The serialized form of a secp256k1 transfer output as the platform codec writes it (codec version,
 * tx id, output index, asset id, type id 7, amount, locktime, threshold, addresses), so `utxoBytes`
 * is a real, decodable value rather than filler.
 */
export function encodeUtxoBytes(o: {
  txId: Uint8Array;
  outputIndex: number;
  assetId: Uint8Array;
  amount: bigint;
  locktime: number;
  threshold: number;
  addresses: Uint8Array[];
}): string {
  const size = 2 + 32 + 4 + 32 + 4 + 8 + 8 + 4 + 4 + 20 * o.addresses.length;
  const buf = new Uint8Array(size);
  const view = new DataView(buf.buffer);
  let at = 2; // codec version 0
  buf.set(o.txId, at);
  at += 32;
  view.setUint32(at, o.outputIndex);
  at += 4;
  buf.set(o.assetId, at);
  at += 32;
  view.setUint32(at, 7);
  at += 4;
  view.setBigUint64(at, o.amount);
  at += 8;
  view.setBigUint64(at, BigInt(o.locktime));
  at += 8;
  view.setUint32(at, o.threshold);
  at += 4;
  view.setUint32(at, o.addresses.length);
  at += 4;
  for (const a of o.addresses) {
    buf.set(a, at);
    at += 20;
  }
  return `0x${Buffer.from(buf.buffer).toString('hex')}`;
}
