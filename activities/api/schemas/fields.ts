import { z } from 'zod';

/**
 * Field builders shared by every schema. The public service is lenient and varies by chain, so the
 * schemas are too: unknown keys are kept (loose objects), non-structural fields may be absent or null,
 * enum-typed fields are plain strings, and the few representation differences seen between P-, X- and
 * C-chain shapes (integers sent as strings, amounts sent as numbers) are normalized here, once.
 */

/** A decimal quantity (amount, balance, gas, block number). Always a string: never a JS number. */
export const decimal = z.union([
  z.string(),
  // Some shapes send small quantities as JSON numbers; keep them as exact integer text.
  z.number().transform((n) => (Number.isSafeInteger(n) ? BigInt(n).toString() : String(n))),
]);

/**
 * An integer (timestamps, indexes, counts). X-chain shapes sometimes send these as numeric strings.
 * One beyond ±(2^53-1) — quoted by the API, or a bare number the lossless parse kept as text — is
 * rejected rather than rounded into a JS number.
 */
export const integer = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number)
    .refine(Number.isSafeInteger, 'integer beyond ±(2^53-1): a JS number would round it'),
]);

/** A floating point number (percentages, progress). */
export const number = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, 'expected a number').transform(Number)]);

/** A boolean, also accepted as "true"/"false" text. */
export const boolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')]);

/** An enum-typed field: any string is accepted and stored as-is (known values are documentation). */
export const enumString = z.string();

export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

export const strings = z.array(z.string());
