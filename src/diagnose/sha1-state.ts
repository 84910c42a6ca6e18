/**
 * SHA-1 whose running state can be copied: the formula search hashes each ordering of a control
 * formula's terms by extending the state of its prefix, so orderings that share a prefix hash it
 * once. Synchronous and pure; only the debugger's search uses it (signing goes through the
 * CryptoPort). Checked against node:crypto in test/diagnose/sha1-state.test.ts.
 */
export class Sha1State {
  private h = new Int32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  private block = new Uint8Array(64);
  private used = 0;
  private length = 0;
  private static readonly w = new Int32Array(80);

  clone(): Sha1State {
    const c = new Sha1State();
    c.h.set(this.h);
    c.block.set(this.block);
    c.used = this.used;
    c.length = this.length;
    return c;
  }

  update(bytes: Uint8Array): this {
    this.length += bytes.length;
    let i = 0;
    while (i < bytes.length) {
      const n = Math.min(64 - this.used, bytes.length - i);
      this.block.set(bytes.subarray(i, i + n), this.used);
      this.used += n;
      i += n;
      if (this.used === 64) {
        this.compress();
        this.used = 0;
      }
    }
    return this;
  }

  /** The lowercase hex digest; the state is spent (clone first to keep it). */
  hex(): string {
    const bits = this.length * 8;
    this.block[this.used++] = 0x80;
    if (this.used > 56) {
      this.block.fill(0, this.used);
      this.compress();
      this.used = 0;
    }
    this.block.fill(0, this.used, 56);
    const hi = Math.floor(bits / 0x100000000);
    const view = new DataView(this.block.buffer);
    view.setUint32(56, hi);
    view.setUint32(60, bits >>> 0);
    this.compress();
    let out = '';
    for (const x of this.h) out += (x >>> 0).toString(16).padStart(8, '0');
    return out;
  }

  private compress(): void {
    const w = Sha1State.w;
    const b = this.block;
    for (let t = 0; t < 16; t++)
      w[t] = (b[t * 4]! << 24) | (b[t * 4 + 1]! << 16) | (b[t * 4 + 2]! << 8) | b[t * 4 + 3]!;
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!;
      w[t] = (x << 1) | (x >>> 31);
    }
    let [a, bb, c, d, e] = this.h as unknown as [number, number, number, number, number];
    for (let t = 0; t < 80; t++) {
      const f =
        t < 20
          ? (bb & c) | (~bb & d)
          : t < 40
            ? bb ^ c ^ d
            : t < 60
              ? (bb & c) | (bb & d) | (c & d)
              : bb ^ c ^ d;
      const k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const tmp = (((a << 5) | (a >>> 27)) + f + e + k + w[t]!) | 0;
      e = d;
      d = c;
      c = (bb << 30) | (bb >>> 2);
      bb = a;
      a = tmp;
    }
    this.h[0] = (this.h[0]! + a) | 0;
    this.h[1] = (this.h[1]! + bb) | 0;
    this.h[2] = (this.h[2]! + c) | 0;
    this.h[3] = (this.h[3]! + d) | 0;
    this.h[4] = (this.h[4]! + e) | 0;
  }
}
