import { aggregateSignatures, type BlsKey } from './blsKeys.ts';
import { PRIMARY_NETWORK_ID, resolveChain } from './chains.ts';
import type { NetworkGenerator } from './generator.ts';
import { cb58Decode, cb58Encode, parseHex } from './ids.ts';

/**
 * Signature aggregation over the simulated validator sets, with real BLS12-381 signatures.
 *
 * signedMessage format (hex), the layout of an Avalanche Warp message:
 *   unsignedMessage bytes
 *   ++ uint32 BE 0 (BitSetSignature type id)
 *   ++ uint32 BE byte length of the signer bitset ++ bitset (big-endian integer; bit i = the i-th
 *      validator of the canonical set, which is sorted by compressed public key bytes)
 *   ++ 96-byte compressed G2 aggregate signature (ciphersuite BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_)
 * When only `justification` is given it is the bytes that get signed.
 */

export interface SigningValidator {
  nodeId: string;
  weight: bigint;
  key: BlsKey | undefined;
  online: boolean;
}

export class AggregationError extends Error {
  constructor(
    readonly status: 400 | 503,
    message: string,
  ) {
    super(message);
  }
}

/** Subnet id as given (hex 0x+64 or cb58) -> cb58, or undefined when malformed. */
export function parseSubnetId(text: string): string | undefined {
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(text)) return cb58Encode(parseHex(text)!);
  const raw = cb58Decode(text);
  return raw && raw.length === 32 ? text : undefined;
}

/** Source chain of a Warp unsigned message (codec 0, network id, source chain id, …) -> its subnet. */
export function subnetOfMessage(gen: NetworkGenerator, message: Uint8Array): string | undefined {
  if (message.length < 38 || message[0] !== 0 || message[1] !== 0) return undefined;
  const sourceChainId = cb58Encode(message.subarray(6, 38));
  if (resolveChain(gen.network, sourceChainId)) return PRIMARY_NETWORK_ID;
  return gen.subnets.find((s) => s.chains.some((c) => c.blockchainId === sourceChainId))?.subnetId;
}

/** The validator set of a subnet at a P-chain height, in canonical order (by public key). */
export function validatorSet(gen: NetworkGenerator, subnetId: string, height: number): SigningValidator[] {
  const time = gen.ledger.pBlockTimes[height] ?? gen.now;
  let set: SigningValidator[];
  const subnet = gen.subnets.find((s) => s.subnetId === subnetId);
  if (subnet?.l1) {
    set = subnet.l1.validators
      .filter((v) => v.weights[0].height <= height && (v.disabledAtHeight === undefined || v.disabledAtHeight > height))
      .map((v) => ({ nodeId: v.nodeId, weight: BigInt([...v.weights].reverse().find((w) => w.height <= height)!.weight), key: v.blsKey, online: v.online }));
  } else {
    const primaryKeys = new Map(gen.validations.filter((v) => v.subnetId === PRIMARY_NETWORK_ID && v.blsKey).map((v) => [v.nodeId, v.blsKey]));
    set = gen.validations
      .filter((v) => v.subnetId === subnetId && v.start <= time && v.end > time && !(v.removeTx && v.removeTx.tx.blockTimestamp <= time))
      .map((v, i) => ({
        nodeId: v.nodeId,
        weight: v.subnetId === PRIMARY_NETWORK_ID ? v.stake + v.delegations.filter((d) => d.start <= time && d.end > time).reduce((s, d) => s + d.stake, 0n) : v.stake,
        // Legacy validators registered no BLS key and cannot sign; one in six is offline.
        key: primaryKeys.get(v.nodeId),
        online: i % 6 !== 5,
      }));
  }
  return set
    .map((v) => ({ v, pk: v.key ? Buffer.from(v.key.publicKey).toString('hex') : `~${v.nodeId}` }))
    .sort((a, b) => (a.pk < b.pk ? -1 : a.pk > b.pk ? 1 : 0))
    .map((x) => x.v);
}

export interface AggregateRequest {
  message: Uint8Array;
  subnetId: string;
  quorumPercentage: number;
  quorumPercentageBuffer: number;
  pChainHeight: number;
}

export function aggregate(gen: NetworkGenerator, req: AggregateRequest): { signedMessage: string; signers: number[] } {
  const height = req.pChainHeight === 0 ? gen.ledger.heights['p-chain'] - 1 : req.pChainHeight;
  const set = validatorSet(gen, req.subnetId, height);
  const total = set.reduce((s, v) => s + v.weight, 0n);
  if (total === 0n) throw new AggregationError(503, `subnet ${req.subnetId} has no validators at P-chain height ${height}`);
  const required = ceilDiv(total * BigInt(req.quorumPercentage), 100n);
  const attempt = ceilDiv(total * BigInt(req.quorumPercentage + req.quorumPercentageBuffer), 100n);
  const candidates = set.map((v, index) => ({ v, index })).filter((c) => c.v.online && c.v.key).sort((a, b) => (a.v.weight === b.v.weight ? a.index - b.index : a.v.weight > b.v.weight ? -1 : 1));
  const signers: number[] = [];
  let weight = 0n;
  for (const c of candidates) {
    if (weight >= attempt && signers.length > 0) break;
    signers.push(c.index);
    weight += c.v.weight;
  }
  if (weight < required || signers.length === 0) {
    throw new AggregationError(503, `insufficient signing weight: reachable validators hold ${weight} of ${total} (${pct(weight, total)}%), quorum requires ${req.quorumPercentage}%`);
  }
  signers.sort((a, b) => a - b);
  const signature = aggregateSignatures(signers.map((i) => set[i].key!.sign(req.message)));
  let bits = 0n;
  for (const i of signers) bits |= 1n << BigInt(i);
  const bitset = bits === 0n ? new Uint8Array() : Uint8Array.from(Buffer.from(bits.toString(16).padStart(Math.ceil(bits.toString(16).length / 2) * 2, '0'), 'hex'));
  const header = Buffer.alloc(8);
  header.writeUInt32BE(0, 0);
  header.writeUInt32BE(bitset.length, 4);
  const out = Buffer.concat([Buffer.from(req.message), header, Buffer.from(bitset), Buffer.from(signature)]);
  return { signedMessage: `0x${out.toString('hex')}`, signers };
}

/** Splits a signedMessage back into its parts (tests and clients use it to verify). */
export function parseSignedMessage(hex: string, messageLength: number): { message: Uint8Array; signers: number[]; signature: Uint8Array } {
  const buf = Buffer.from(hex.replace(/^0x/, ''), 'hex');
  const message = buf.subarray(0, messageLength);
  const bitsetLength = buf.readUInt32BE(messageLength + 4);
  const bitset = buf.subarray(messageLength + 8, messageLength + 8 + bitsetLength);
  const signature = buf.subarray(messageLength + 8 + bitsetLength);
  const bits = bitset.length === 0 ? 0n : BigInt(`0x${bitset.toString('hex')}`);
  const signers: number[] = [];
  for (let i = 0; bits >> BigInt(i) > 0n; i++) if ((bits >> BigInt(i)) & 1n) signers.push(i);
  return { message: Uint8Array.from(message), signers, signature: Uint8Array.from(signature) };
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const pct = (a: bigint, b: bigint) => (Number((a * 10_000n) / b) / 100).toFixed(2);
