/**
 * Conversions from validated API values to warehouse cells. None of them rounds: a value that does
 * not fit a typed column becomes NULL there and stays exact in its VARCHAR twin where one exists.
 */

const INTEGER_TEXT = /^-?\d+$/;
const U64_MAX = (1n << 64n) - 1n;
const I64_MAX = (1n << 63n) - 1n;
const HUGE_MAX = (1n << 127n) - 1n;
const DEC38_MAX = 10n ** 38n - 1n;

type Maybe<T> = T | null | undefined;

function toBigInt(value: Maybe<string | number>): bigint | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : null;
  const text = value.trim();
  return INTEGER_TEXT.test(text) ? BigInt(text) : null;
}

/** UBIGINT (block numbers, 64-bit counters). */
export function u64(value: Maybe<string | number>): bigint | null {
  const n = toBigInt(value);
  return n !== null && n >= 0n && n <= U64_MAX ? n : null;
}

/** BIGINT (epoch seconds, signed 64-bit). */
export function i64(value: Maybe<string | number>): bigint | null {
  const n = toBigInt(value);
  return n !== null && n >= -I64_MAX - 1n && n <= I64_MAX ? n : null;
}

/** HUGEINT (nAVAX and other primary-network asset amounts). */
export function huge(value: Maybe<string | number>): bigint | null {
  const n = toBigInt(value);
  return n !== null && n >= -HUGE_MAX - 1n && n <= HUGE_MAX ? n : null;
}

/** DECIMAL(38,0) twin of a uint256: NULL when the exact value has more than 38 digits. */
export function dec38(value: Maybe<string | number>): bigint | null {
  const n = toBigInt(value);
  return n !== null && n >= -DEC38_MAX && n <= DEC38_MAX ? n : null;
}

/** INTEGER (32-bit: decimals, indexes, counts). */
export function int(value: Maybe<number | string>): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 ? n : null;
}

/** DOUBLE (percentages, progress). */
export function dbl(value: Maybe<number | string>): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

export function str(value: Maybe<string | number>): string | null {
  return value === null || value === undefined ? null : String(value);
}

export function bool(value: Maybe<boolean>): boolean | null {
  return value ?? null;
}

export function strs(value: Maybe<readonly string[]>): string[] | null {
  return value ? [...value] : null;
}

/** JSON column: nested objects the spec leaves open (genesis data, geolocation, ...). */
export function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
