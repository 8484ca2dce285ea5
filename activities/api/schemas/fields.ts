import { z } from 'zod';
import { ENUMERATIONS, type EnumerationName } from './enumerations.ts';

/**
 * Field builders shared by every schema. The public service is lenient and varies by chain, so the
 * schemas are too: unknown keys are kept (loose objects), non-structural fields may be absent or null,
 * enum-typed fields are plain strings, and the few representation differences seen between P-, X- and
 * C-chain shapes (integers sent as strings, amounts sent as numbers) are normalized here, once.
 */

/**
 * The decimal text of a JSON number. The service serializes doubles in their shortest round-trip form,
 * which String(n) reproduces digit for digit (12.345 stays "12.345"); only its exponent form (from
 * 1e21, below 1e-6) is spelled out here as plain decimal digits. Integers beyond 2^53 never get here as
 * numbers: the lossless parse keeps them as their exact text.
 */
export function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`not a finite number: ${n}`);
  const text = String(n);
  const e = text.indexOf('e');
  if (e < 0) return text;
  const sign = text.startsWith('-') ? '-' : '';
  const [int, frac = ''] = text.slice(sign.length, e).split('.');
  const exp = Number(text.slice(e + 1));
  const digits = int + frac;
  const point = int.length + exp;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * A decimal quantity (amount, balance, gas, block number, Money.value). Always a string, never a JS
 * number: the interface sends decimal strings, some shapes of the public service send JSON numbers
 * (Money.value, small quantities), kept as their exact decimal text.
 */
export const decimal = z.union([z.string(), z.number().transform(numberText)]);

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

/** The values an enum field is known to take (drift detection: a value outside is stored as sent and recorded). */
const knownValues = new WeakMap<z.ZodType, ReadonlySet<string>>();

/**
 * A field typed by one of the interface's enumerations (enumerations.ts): still any string (a new
 * value never fails validation), but one outside the enumeration's known values is reported as drift.
 */
export function enumOf(name: EnumerationName): z.ZodString {
  const schema = z.string();
  knownValues.set(schema, new Set(ENUMERATIONS[name]));
  return schema;
}

/** The known values of an enum field declared with enumOf. */
export const knownValuesOf = (schema: z.ZodType): ReadonlySet<string> | undefined => knownValues.get(schema);

export const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

export const strings = z.array(z.string());
