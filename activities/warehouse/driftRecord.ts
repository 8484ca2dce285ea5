/**
 * What a page carried that its stream did not expect (schema drift), as recorded in _glacier_drift
 * (sql/schema/050_drift.sql) in the same transaction as the page's rows.
 */
export type DriftKind = 'new_field' | 'new_enum_value' | 'missing_field' | 'type_change' | 'new_chain';

export interface DriftSeen {
  kind: DriftKind;
  /** JSON path inside one item: `from.label`, `erc20Transfers[].logIndex`; for new_enum_value `txType=NewTx`. */
  path: string;
  /** Items (or pages, for missing_field) it was seen in. */
  count: number;
  /** One value as sent (JSON text, at most SAMPLE_MAX characters). */
  sample: string | null;
}

export const SAMPLE_MAX = 200;

/** A stream's record of one top-level field (the missing_field baseline): items seen, and whether all of them sent it. */
export interface FieldPresence {
  items: number;
  always: boolean;
}

/** Items a field must have been sent in, every one, before its absence from a page is drift. */
export const BASELINE_ITEMS = 50;
/** Items counted at most: past the baseline, only a change of `always` is written (a commit writes no field records once they settled). */
export const COUNTED_ITEMS = BASELINE_ITEMS;

/** JSON text of a value, cut to SAMPLE_MAX characters. */
export function sampleOf(value: unknown): string | null {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  return text.length > SAMPLE_MAX ? `${text.slice(0, SAMPLE_MAX - 1)}…` : text;
}

/** Folds observations of one key (kind + path) together: counts add, the first sample stays. */
export function mergeDrift(into: Map<string, DriftSeen>, seen: Iterable<DriftSeen>): void {
  for (const d of seen) {
    const key = `${d.kind}\u0000${d.path}`;
    const had = into.get(key);
    if (had) had.count += d.count;
    else into.set(key, { ...d });
  }
}
