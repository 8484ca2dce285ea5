/**
 * A growable scratch buffer that JSON text writers spell ASCII into (digits, hex, precomputed
 * fragments): no intermediate strings, number conversions or concatenations on hot paths.
 *
 * Digits and hex go out two characters per store through a DataView (a 16-bit store of a table
 * entry), and fragments longer than a few bytes by one native copy: single-byte stores from JS
 * cost several nanoseconds each, and a page is ~60 KB of them (`npm run bench:simulator`).
 */
export class AsciiWriter {
  buf: Buffer;
  dv: DataView;
  pos = 0;

  constructor(size = 2048) {
    this.buf = Buffer.allocUnsafeSlow(size);
    this.dv = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  }

  reset(): this {
    this.pos = 0;
    return this;
  }

  /** Makes room for n more bytes. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
    this.dv = new DataView(next.buffer, next.byteOffset, next.length);
  }

  /** Bytes of a precomputed fragment (see asciiBytes). */
  bytes(b: Uint8Array): void {
    const n = b.length;
    this.ensure(n);
    const buf = this.buf;
    const p = this.pos;
    // A native copy costs about what a dozen single-byte stores do.
    if (n > 12) buf.set(b, p);
    else for (let i = 0; i < n; i++) buf[p + i] = b[i];
    this.pos = p + n;
  }

  /** A string known to be ASCII (rare values; fragments should be precomputed with asciiBytes). */
  ascii(s: string): void {
    this.ensure(s.length);
    this.pos += this.buf.write(s, this.pos, 'latin1');
  }

  byte(c: number): void {
    this.ensure(1);
    this.buf[this.pos++] = c;
  }

  /** The 4 bytes of a 32-bit word as 8 lower-case hex digits, lowest byte first. */
  hexLE(w: number): void {
    this.ensure(8);
    const dv = this.dv;
    const p = this.pos;
    dv.setUint16(p, HEX2[w & 255], true);
    dv.setUint16(p + 2, HEX2[(w >>> 8) & 255], true);
    dv.setUint16(p + 4, HEX2[(w >>> 16) & 255], true);
    dv.setUint16(p + 6, HEX2[w >>> 24], true);
    this.pos = p + 8;
  }

  /** A 32-bit word as 8 lower-case hex digits, most significant first (hex32 of the word). */
  hexBE(w: number): void {
    this.ensure(8);
    const dv = this.dv;
    const p = this.pos;
    dv.setUint16(p, HEX2[w >>> 24], true);
    dv.setUint16(p + 2, HEX2[(w >>> 16) & 255], true);
    dv.setUint16(p + 4, HEX2[(w >>> 8) & 255], true);
    dv.setUint16(p + 6, HEX2[w & 255], true);
    this.pos = p + 8;
  }

  /** Decimal digits of a non-negative integer <= 2^53, as String(n) spells them. */
  uint(n: number): void {
    if (n < 10) {
      this.byte(48 + n);
      return;
    }
    // Digit count from the bit length (log10(2) ~ 1233 / 4096), corrected by one comparison.
    const bits = n < 4294967296 ? 32 - Math.clz32(n) : 64 - Math.clz32(Math.floor(n / 4294967296));
    let len = (bits * 1233) >>> 12;
    if (n >= POW10[len]) len++;
    this.ensure(len);
    const end = this.pos + len;
    this.pos = end;
    // By 32-bit integer division, two digits per step. Below 2^32 (most values: block numbers,
    // timestamps, gas) in one run; above it (gas prices, fee sums) the low 8 digits first, then the
    // rest (< 2^53 / 10^8 < 2^32), instead of a floating-point division per digit.
    if (n < 4294967296) {
      this.digitsBackwards(end, n >>> 0, len);
      return;
    }
    const hi = Math.floor(n / 1e8);
    this.digitsBackwards(end, (n - hi * 1e8) >>> 0, 8);
    this.digitsBackwards(end - 8, hi >>> 0, len - 8);
  }

  /** Decimal digits of an unsigned 32-bit integer n < 10^width, left-padded with zeros to `width`. */
  u32Padded(n: number, width: number): void {
    this.ensure(width);
    this.pos += width;
    this.digitsBackwards(this.pos, n >>> 0, width);
  }

  /** The `width` lowest decimal digits of x (zero-padded) into buf[end - width, end). */
  private digitsBackwards(end: number, x: number, width: number): void {
    const dv = this.dv;
    let p = end;
    let left = width;
    while (left >= 2) {
      const q = (x / 100) >>> 0;
      p -= 2;
      dv.setUint16(p, DIGIT2[x - q * 100], true);
      x = q;
      left -= 2;
    }
    if (left === 1) this.buf[p - 1] = 48 + (x % 10);
  }

  /** What was written since reset, as one flat string. */
  text(): string {
    return this.buf.toString('latin1', 0, this.pos);
  }
}

const POW10 = Array.from({ length: 17 }, (_, i) => 10 ** i);
/** Two ASCII characters as one little-endian 16-bit value: the first is the low byte. */
const pair = (s: string): number => s.charCodeAt(0) | (s.charCodeAt(1) << 8);
/** HEX2[b]: the two hex digits of byte b. */
const HEX2 = Uint16Array.from({ length: 256 }, (_, b) => pair(b.toString(16).padStart(2, '0')));
/** DIGIT2[n]: the two decimal digits of n < 100. */
const DIGIT2 = Uint16Array.from({ length: 100 }, (_, n) => pair(String(n).padStart(2, '0')));

/** Writers lent out by spellText; a stack, so a writer that spells a nested value gets its own. */
const spare: AsciiWriter[] = [];

/**
 * What `write` spells, as one flat string: for the off-list uses of the byte writers (ids, hashes,
 * templates' counterparts, tests). List pages write into their page buffer instead.
 */
export function spellText(write: (w: AsciiWriter) => void): string {
  const w = spare.pop() ?? new AsciiWriter();
  try {
    write(w.reset());
    return w.text();
  } finally {
    spare.push(w);
  }
}

/** The bytes of an ASCII fragment, for AsciiWriter.bytes. */
export function asciiBytes(s: string): Uint8Array {
  // eslint-disable-next-line no-control-regex
  if (!/^[\x00-\x7f]*$/.test(s)) throw new Error(`not ASCII: ${s}`);
  return Uint8Array.from(Buffer.from(s, 'latin1'));
}
