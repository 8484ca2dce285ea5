/**
 * JSON.parse that never rounds an integer: a bare integer literal that a JS number cannot hold
 * exactly (beyond ±Number.MAX_SAFE_INTEGER) comes back as its exact decimal text. Everything else —
 * strings, safe integers, fractions and exponents (doubles in the spec anyway) — is exactly what
 * JSON.parse returns, and malformed text throws JSON.parse's SyntaxError.
 *
 * Node 20's JSON.parse gives a reviver no access to the source text, so the text is parsed once and
 * the result checked for a number beyond the safe range, which every unsafe integer literal parses to
 * (it rounds to at least 2^53 in magnitude). The check visits the parsed values, not the text: on a
 * 300 KB page it costs a fraction of a regex scan of the text (a pattern such as /\d{16}/ also matches
 * every EVM page — uint256 strings, hex hashes — and scanning for one preceded by `:`, `,` or `[`
 * costs ~20% of JSON.parse).
 *
 * A page that holds such numbers (most P-chain pages carry an L1 validator weight beyond 2^53) is
 * mended in place: the check noted where each one sits, in the order JSON.parse met them, and a scan
 * of the text lists the number tokens beyond the safe range in text order; each pair must agree (same
 * count, each token parsing to the value found), and each integer token replaces its rounded value.
 * Where text order and the parsed objects' key order can differ (an object with an array-index key,
 * which JS enumerates first) or a pair disagrees (a duplicate key), the big literals are quoted in the
 * text and the text parsed again. Mending instead of parsing again took bench:write-path's P-chain
 * parse stage from 2.26 to about 1.5 CPU ms per page.
 */

const MAX = Number.MAX_SAFE_INTEGER;

/** Where a number beyond the safe range sits in the parsed value. */
interface Slot {
  container: Record<string, unknown> | unknown[];
  key: string | number;
  value: number;
}

/** Parses JSON like JSON.parse, returning integers beyond Number.MAX_SAFE_INTEGER as exact decimal strings. */
export function parseJsonLossless(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (typeof value === 'number') return isUnsafe(value) ? JSON.parse(quoteUnsafeIntegers(text)) : value;
  if (typeof value !== 'object' || value === null) return value;
  const slots: Slot[] = [];
  let ordered: boolean;
  try {
    ordered = collectUnsafe(value, slots);
  } catch {
    // Nesting deeper than the call stack (JSON.parse itself is not recursive): the exact scan decides.
    return JSON.parse(quoteUnsafeIntegers(text));
  }
  if (slots.length === 0) return value;
  if (ordered && mend(text, slots)) return value;
  return JSON.parse(quoteUnsafeIntegers(text));
}

function isUnsafe(x: number): boolean {
  return x > MAX || x < -MAX;
}

/**
 * Notes every number beyond the safe range under node, in JSON.parse's order. False when some object
 * has an array-index key: JS enumerates those first, so the order may differ from the text's.
 */
function collectUnsafe(node: object, slots: Slot[]): boolean {
  let ordered = true;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const x: unknown = node[i];
      if (typeof x === 'object') {
        if (x !== null && !collectUnsafe(x, slots)) ordered = false;
      } else if (typeof x === 'number' && isUnsafe(x)) slots.push({ container: node, key: i, value: x });
    }
    return ordered;
  }
  const record = node as Record<string, unknown>;
  for (const key in record) {
    const first = key.charCodeAt(0);
    if (first >= DIGIT_0 && first <= DIGIT_9 && ARRAY_INDEX.test(key)) ordered = false;
    const x = record[key];
    if (typeof x === 'object') {
      if (x !== null && !collectUnsafe(x, slots)) ordered = false;
    } else if (typeof x === 'number' && isUnsafe(x)) slots.push({ container: record, key, value: x });
  }
  return ordered;
}

/** A key JS orders before the others (a canonical array index). */
const ARRAY_INDEX = /^(0|[1-9]\d{0,9})$/;

/** Puts each unsafe integer's exact text in its slot; false (nothing changed) when the text's tokens do not pair with the slots. */
function mend(text: string, slots: Slot[]): boolean {
  const tokens = unsafeNumberTokens(text);
  if (tokens.length !== slots.length) return false;
  for (let i = 0; i < tokens.length; i++) if (Number(tokens[i]) !== slots[i].value) return false;
  for (let i = 0; i < tokens.length; i++) {
    if (!INTEGER_LITERAL.test(tokens[i])) continue; // a fraction or exponent stays the double JSON.parse made
    const { container, key } = slots[i];
    (container as Record<string | number, unknown>)[key] = tokens[i];
  }
  return true;
}

/** A JSON integer literal (no fraction, no exponent). */
const INTEGER_LITERAL = /^-?\d+$/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/** Index just past the closing quote of the string whose body starts at `from` (text.length if unterminated). */
function skipString(text: string, from: number): number {
  let at = from;
  for (;;) {
    const close = text.indexOf('"', at);
    if (close < 0) return text.length;
    let backslashes = 0;
    for (let k = close - 1; k >= from && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return close + 1; // an even run of backslashes escapes itself, not the quote
    at = close + 1;
  }
}

/** A character that can continue a number token: digit, `.`, `e`, `E`, `+`, `-`. */
function isNumberChar(c: number): boolean {
  return (c >= DIGIT_0 && c <= DIGIT_9) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;
}

/**
 * Calls onToken(start, end) for every number token outside strings. Only called on text that
 * JSON.parse has accepted, so outside strings a `-` or digit starts a number token in a value
 * position, and the token runs to the next character that cannot continue a number. Strings are
 * skipped whole (escapes included): their digits are never touched.
 */
function scanNumbers(text: string, onToken: (start: number, end: number) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i + 1);
    } else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      let end = i + 1;
      while (end < n && isNumberChar(text.charCodeAt(end))) end++;
      onToken(i, end);
      i = end;
    } else {
      i++;
    }
  }
}

/** Number tokens that parse beyond the safe range, in text order: 16 characters or more, or with an exponent. */
function unsafeNumberTokens(text: string): string[] {
  const tokens: string[] = [];
  scanNumbers(text, (start, end) => {
    if (end - start < 16 && !hasExponent(text, start, end)) return;
    const token = text.slice(start, end);
    if (isUnsafe(Number(token))) tokens.push(token);
  });
  return tokens;
}

/** Does the number token text[start, end) have an exponent (`e` or `E`)? Read in place: most tokens are short. */
function hasExponent(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if ((text.charCodeAt(i) | 0x20) === 0x65) return true;
  return false;
}

/** The text with every bare integer literal outside the safe range quoted (the fallback: JSON.parse then reads them as strings). */
function quoteUnsafeIntegers(text: string): string {
  let out = '';
  let copied = 0;
  scanNumbers(text, (start, end) => {
    // 15 digits or fewer are always safe; only longer tokens need a look.
    if (end - start < 16) return;
    const token = text.slice(start, end);
    if (INTEGER_LITERAL.test(token) && !Number.isSafeInteger(Number(token))) {
      out += `${text.slice(copied, start)}"${token}"`;
      copied = end;
    }
  });
  return out + text.slice(copied);
}
