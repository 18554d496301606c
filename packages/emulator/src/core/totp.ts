/**
 * TOTP (RFC 6238: HMAC-SHA1, 30-second steps, 6 digits) with base32 secrets, for two-factor
 * authentication (spec part 1, "Account and sign-in").
 */
import { createHmac } from "node:crypto";
import type { Rng } from "./rng";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function newTotpSecret(rng: Rng): string {
  let out = "";
  for (let i = 0; i < 32; i++) out += BASE32[rng.int(0, 31)];
  return out;
}

function base32Decode(text: string): Buffer {
  let bits = "";
  for (const ch of text.replace(/=+$/, "").toUpperCase()) {
    const v = BASE32.indexOf(ch);
    if (v < 0) throw new Error("invalid base32 secret");
    bits += v.toString(2).padStart(5, "0");
  }
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

export function totpCode(secret: string, at: number, stepOffset = 0): string {
  const counter = Math.floor(at / 30_000) + stepOffset;
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const hmac = createHmac("sha1", base32Decode(secret)).update(msg).digest();
  const offset = hmac[hmac.length - 1] & 0xf;
  const bin = (hmac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(bin).padStart(6, "0");
}

/** Accepts the current code and its neighbours (clock drift of one step either way). */
export function verifyTotp(secret: string, code: string, at: number): boolean {
  return [-1, 0, 1].some((o) => totpCode(secret, at, o) === code);
}

export function otpauthUri(secret: string, email: string): string {
  return `otpauth://totp/svc:${encodeURIComponent(email)}?secret=${secret}&issuer=svc&algorithm=SHA1&digits=6&period=30`;
}
