/**
 * JSON.parse that never rounds an integer: a bare integer literal that a JS number cannot hold
 * exactly (beyond ±Number.MAX_SAFE_INTEGER) comes back as its exact decimal text. Everything else —
 * strings, safe integers, fractions and exponents (doubles in the spec anyway) — is exactly what
 * JSON.parse returns, and malformed text throws JSON.parse's SyntaxError.
 *
 * Node 20's JSON.parse gives a reviver no access to the source text, so the big literals are quoted
 * in the text and the text parsed again. That happens only for a page that needs it: the first
 * JSON.parse's result is checked for a number beyond the safe range, which every unsafe integer
 * literal parses to (it rounds to at least 2^53 in magnitude). The check visits the parsed values,
 * not the text: on a 300 KB page it costs a fraction of a regex scan of the text (a pattern such as
 * /\d{16}/ also matches every EVM page — uint256 strings, hex hashes — and scanning for one preceded
 * by `:`, `,` or `[` costs ~20% of JSON.parse).
 */

const MAX = Number.MAX_SAFE_INTEGER;

/** Parses JSON like JSON.parse, returning integers beyond Number.MAX_SAFE_INTEGER as exact decimal strings. */
export function parseJsonLossless(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!mayHoldUnsafeInteger(value)) return value;
  return JSON.parse(quoteUnsafeIntegers(text));
}

/** Does the parsed value hold a number beyond the safe integer range (the trace of a rounded integer literal)? */
function mayHoldUnsafeInteger(value: unknown): boolean {
  if (typeof value === 'number') return value > MAX || value < -MAX;
  if (typeof value !== 'object' || value === null) return false;
  try {
    return holdsUnsafeNumber(value);
  } catch {
    // Nesting deeper than the call stack (JSON.parse itself is not recursive): let the exact scan decide.
    return true;
  }
}

function holdsUnsafeNumber(node: object): boolean {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const x: unknown = node[i];
      if (typeof x === 'object' ? x !== null && holdsUnsafeNumber(x) : typeof x === 'number' && (x > MAX || x < -MAX)) return true;
    }
    return false;
  }
  for (const key in node) {
    const x: unknown = (node as Record<string, unknown>)[key];
    if (typeof x === 'object' ? x !== null && holdsUnsafeNumber(x) : typeof x === 'number' && (x > MAX || x < -MAX)) return true;
  }
  return false;
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
 * The text with every bare integer literal outside the safe range quoted. Only called on text that
 * JSON.parse has accepted, so outside strings a `-` or digit starts a number token in a value
 * position, and the token runs to the next character that cannot continue a number. Strings are
 * skipped whole (escapes included): their digits are never touched.
 */
function quoteUnsafeIntegers(text: string): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i + 1);
    } else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      let end = i + 1;
      while (end < n && isNumberChar(text.charCodeAt(end))) end++;
      // 15 digits or fewer are always safe; only longer tokens need a look.
      if (end - i >= 16) {
        const token = text.slice(i, end);
        if (INTEGER_LITERAL.test(token) && !Number.isSafeInteger(Number(token))) {
          out += `${text.slice(copied, i)}"${token}"`;
          copied = end;
        }
      }
      i = end;
    } else {
      i++;
    }
  }
  return out + text.slice(copied);
}
