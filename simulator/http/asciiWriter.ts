/**
 * A growable scratch buffer that JSON text writers spell ASCII into byte by byte (digits, hex,
 * precomputed fragments), then read back as one flat string: no intermediate strings, number
 * conversions or concatenations on hot paths.
 */
export class AsciiWriter {
  buf: Buffer;
  pos = 0;

  constructor(size = 2048) {
    this.buf = Buffer.allocUnsafeSlow(size);
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
  }

  /** Bytes of a precomputed fragment (see asciiBytes). */
  bytes(b: Uint8Array): void {
    const n = b.length;
    this.ensure(n);
    const buf = this.buf;
    const p = this.pos;
    // Short fragments: a plain loop beats the call into a native copy.
    if (n > 64) buf.set(b, p);
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

  /** Decimal digits of a non-negative integer <= 2^53, as String(n) spells them. */
  uint(n: number): void {
    let len = 1;
    while (len < 16 && n >= POW10[len]) len++;
    this.ensure(len);
    const buf = this.buf;
    let p = this.pos + len;
    this.pos = p;
    // Digits by 32-bit integer division. Below 2^32 (most values: block numbers, timestamps, gas)
    // in one run; above it (gas prices, fee sums) the low 8 digits first, then the rest
    // (< 2^53 / 10^8 < 2^32), instead of a floating-point division per digit.
    let x = n >>> 0;
    if (n >= 4294967296) {
      const hi = Math.floor(n / 1e8);
      let lo = (n - hi * 1e8) >>> 0;
      for (let i = 0; i < 8; i++) {
        const q = (lo / 10) >>> 0;
        buf[--p] = 48 + lo - q * 10;
        lo = q;
      }
      x = hi >>> 0;
    }
    do {
      const q = (x / 10) >>> 0;
      buf[--p] = 48 + x - q * 10;
      x = q;
    } while (x > 0);
  }

  /** Decimal digits of an unsigned 32-bit integer n < 10^width, left-padded with zeros to `width`. */
  u32Padded(n: number, width: number): void {
    this.ensure(width);
    const buf = this.buf;
    let p = this.pos + width;
    this.pos = p;
    let x = n >>> 0;
    for (let i = 0; i < width; i++) {
      const q = (x / 10) >>> 0;
      buf[--p] = 48 + x - q * 10;
      x = q;
    }
  }

  /** What was written since reset, as one flat string. */
  text(): string {
    return this.buf.toString('latin1', 0, this.pos);
  }
}

const POW10 = Array.from({ length: 17 }, (_, i) => 10 ** i);

/** The bytes of an ASCII fragment, for AsciiWriter.bytes. */
export function asciiBytes(s: string): Uint8Array {
  // eslint-disable-next-line no-control-regex
  if (!/^[\x00-\x7f]*$/.test(s)) throw new Error(`not ASCII: ${s}`);
  return Uint8Array.from(Buffer.from(s, 'latin1'));
}
