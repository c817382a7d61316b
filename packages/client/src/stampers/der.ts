// ASN.1 DER encoding of an ECDSA signature (RFC 3279 section 2.2.3: SEQUENCE of two
// INTEGERs). WebCrypto returns raw r || s (IEEE P1363); the wire wants DER hex.

/** Minimal positive INTEGER: strip leading zeros, add one back when the top bit is set. */
function derInteger(bytes: Uint8Array): Uint8Array {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const body = bytes.subarray(start);
  const pad = (body[0]! & 0x80) !== 0 ? 1 : 0;
  const out = new Uint8Array(2 + pad + body.length);
  out[0] = 0x02;
  out[1] = pad + body.length;
  out.set(body, 2 + pad);
  return out;
}

/**
 * Converts a raw `r || s` ECDSA signature (64 bytes for P-256/secp256k1) to DER.
 *
 * @example
 * ```ts
 * const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, body));
 * bytesToHex(rawSignatureToDer(raw)); // '3045022100...'
 * ```
 */
export function rawSignatureToDer(raw: Uint8Array): Uint8Array {
  if (raw.length !== 64) throw new RangeError('raw signature must be 64 bytes (r || s)');
  const r = derInteger(raw.subarray(0, 32));
  const s = derInteger(raw.subarray(32));
  const out = new Uint8Array(2 + r.length + s.length);
  out[0] = 0x30;
  out[1] = r.length + s.length;
  out.set(r, 2);
  out.set(s, 2 + r.length);
  return out;
}
