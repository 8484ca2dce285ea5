import { ApiError, badRequest } from '../http/apiError.ts';
import { network } from '../http/params.ts';
import { WEIGHT, type RouteDef } from '../http/route.ts';
import { PRIMARY_NETWORK_ID } from '../primary/chains.ts';
import { parseHex } from '../primary/ids.ts';
import type { PrimaryWorld } from '../primary/primaryWorld.ts';
import { aggregate, AggregationError, parseSubnetId, subnetOfMessage } from '../primary/signatureAggregator.ts';

/**
 * POST signature aggregation. Errors: 400 for invalid input (naming the field); 503 when the
 * reachable validators cannot reach the quorum (offline validators, keyless legacy validators).
 */

function hexField(body: Record<string, unknown>, name: string): Uint8Array | undefined {
  const v = body[name];
  if (v === undefined || v === null || v === '') return undefined;
  const bytes = typeof v === 'string' ? parseHex(v) : undefined;
  if (!bytes || bytes.length === 0) throw badRequest(`${name} must be a non-empty hex string (optional 0x prefix)`);
  return bytes;
}

function percentField(body: Record<string, unknown>, name: string, def: number): number {
  const v = body[name];
  if (v === undefined || v === null) return def;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 100) throw badRequest(`${name} must be an integer between 0 and 100`);
  return v;
}

export const aggregateSignaturesRoute: RouteDef = {
  method: 'POST',
  path: '/v1/signatureAggregator/:network/aggregateSignatures',
  weight: WEIGHT.large,
  service: 'data',
  handler(ctx) {
    const net = network(ctx.params);
    const gen = ctx.world.part<PrimaryWorld>('primary').network(net);
    if (!ctx.body || typeof ctx.body !== 'object' || Array.isArray(ctx.body)) throw badRequest('request body must be a JSON object');
    const body = ctx.body as Record<string, unknown>;
    const message = hexField(body, 'message');
    const justification = hexField(body, 'justification');
    if (!message && !justification) throw badRequest('message or justification is required');
    const quorumPercentage = percentField(body, 'quorumPercentage', 67);
    const quorumPercentageBuffer = percentField(body, 'quorumPercentageBuffer', 0);
    if (quorumPercentage + quorumPercentageBuffer > 100) throw badRequest('quorumPercentage + quorumPercentageBuffer must be at most 100');
    const heightRaw = body.pChainHeight ?? 0;
    if (typeof heightRaw !== 'number' || !Number.isInteger(heightRaw) || heightRaw < 0) throw badRequest('pChainHeight must be an integer >= 0');
    const tip = gen.ledger.heights['p-chain'] - 1;
    if (heightRaw > tip) throw badRequest(`pChainHeight ${heightRaw} is above the current P-chain height ${tip}`);
    const signed = (message ?? justification)!;
    let subnetId: string | undefined;
    if (body.signingSubnetId !== undefined && body.signingSubnetId !== null && body.signingSubnetId !== '') {
      subnetId = typeof body.signingSubnetId === 'string' ? parseSubnetId(body.signingSubnetId) : undefined;
      if (!subnetId) throw badRequest('signingSubnetId must be a hex or cb58 subnet id');
      if (subnetId !== PRIMARY_NETWORK_ID && !gen.subnets.some((s) => s.subnetId === subnetId)) throw badRequest(`signingSubnetId: unknown subnet ${subnetId}`);
    } else {
      subnetId = subnetOfMessage(gen, signed);
      if (!subnetId) throw badRequest('signingSubnetId is required: the message is not a Warp message from a known source chain');
    }
    try {
      const { signedMessage } = aggregate(gen, { message: signed, subnetId, quorumPercentage, quorumPercentageBuffer, pChainHeight: heightRaw });
      return { signedMessage };
    } catch (err) {
      if (err instanceof AggregationError) throw new ApiError(err.status, err.message);
      throw err;
    }
  },
};

export const signatureRoutes: RouteDef[] = [aggregateSignaturesRoute];
