import { enumParam } from '../http/params.ts';

/** Currencies of the interface, with fixed made-up rates against USD (prices are decoration). */
export const CURRENCY_RATES = {
  usd: 1, eur: 0.92, aud: 1.52, cad: 1.37, chf: 0.88, clp: 940, cny: 7.2, czk: 23, dkk: 6.9, gbp: 0.79, hkd: 7.8, huf: 360, jpy: 150, nzd: 1.66,
} as const;
export type Currency = keyof typeof CURRENCY_RATES;
const CURRENCIES = Object.keys(CURRENCY_RATES) as Currency[];

export interface Money {
  currencyCode: string;
  value: string;
}

export function currencyParam(query: URLSearchParams): Currency {
  return enumParam(query, 'currency', CURRENCIES) ?? 'usd';
}

export function money(usd: number, currency: Currency): Money {
  return { currencyCode: currency, value: (usd * CURRENCY_RATES[currency]).toFixed(2) };
}

/** Value of `amount` smallest units of a token with `decimals` at `usdPrice`, as Money. */
export function valueOf(amount: bigint, decimals: number, usdPrice: number, currency: Currency): Money {
  // Scaled integer arithmetic to stay exact for huge amounts, then 2 decimal places.
  const cents = (amount * BigInt(Math.round(usdPrice * CURRENCY_RATES[currency] * 1e6))) / 10n ** BigInt(decimals) / 10_000n;
  const s = cents.toString().padStart(3, '0');
  return { currencyCode: currency, value: `${s.slice(0, -2)}.${s.slice(-2)}` };
}

/** USD price of each chain's native token. */
export const NATIVE_USD_PRICE: Record<string, number> = { AVAX: 24.37, FRST: 0.42, RIME: 0 };
