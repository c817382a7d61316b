// EIP-712 typed structured data hashing: keccak256(0x1901 || domainSeparator || hashStruct).
// Behaviour matches viem's hashTypedData: EIP712Domain is inferred from the domain's fields
// unless `types` defines it, and primaryType "EIP712Domain" hashes the domain alone.
import { assertObject } from './assert.js';
import { concatBytes, hexToBytes, utf8ToBytes } from './encoding.js';
import { CryptoError } from './errors.js';
import { keccak256 } from './keccak.js';
import { bigIntToBytes, toBigInt } from './uint.js';

/**
 * One member of an EIP-712 struct type.
 *
 * @example
 * ```ts
 * const field: TypedDataField = { name: 'wallet', type: 'address' };
 * ```
 */
export interface TypedDataField {
  name: string;
  type: string;
}

/**
 * An EIP-712 document as passed to `eth_signTypedData_v4`.
 *
 * @example
 * ```ts
 * const typedData: TypedData = JSON.parse(request.payload);
 * hashTypedData(typedData);
 * ```
 */
export interface TypedData {
  domain?: Record<string, unknown>;
  types: Record<string, readonly TypedDataField[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

type Types = Record<string, readonly TypedDataField[]>;

const ARRAY_SUFFIX = /(\[[0-9]*\])+$/;
const UINT_RE = /^(u?)int([0-9]+)$/;
const BYTES_RE = /^bytes([0-9]+)$/;
const WORD = 32;

function invalid(message: string): CryptoError {
  return new CryptoError('ERR_INVALID_PAYLOAD', `EIP-712: ${message}`);
}

/** The EIP712Domain fields present (not null or undefined) in `domain`, in canonical order. */
function domainFields(domain: Record<string, unknown>): TypedDataField[] {
  const candidates: TypedDataField[] = [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
    { name: 'salt', type: 'bytes32' },
  ];
  return candidates.filter((f) => own(domain, f.name) !== undefined && own(domain, f.name) !== null);
}

/** Own-property lookups only: type and member names come from untrusted JSON. */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

function dependencies(type: string, types: Types, found: Set<string>): Set<string> {
  const base = type.replace(ARRAY_SUFFIX, '');
  const fields = own(types, base);
  if (found.has(base) || fields === undefined) return found;
  found.add(base);
  for (const field of fields) dependencies(field.type, types, found);
  return found;
}

/** `Primary(type name,...)` followed by its dependencies sorted by name. */
function encodeType(primaryType: string, types: Types): string {
  const deps = dependencies(primaryType, types, new Set());
  deps.delete(primaryType);
  return [primaryType, ...[...deps].sort()].map((t) => `${t}(${types[t]!.map((f) => `${f.type} ${f.name}`).join(',')})`).join('');
}

function hexValue(value: unknown, name: string): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string' && value.startsWith('0x')) {
    try {
      return hexToBytes(value);
    } catch {
      // fall through to the coded error below
    }
  }
  throw invalid(`${name} must be a 0x-prefixed hex string`);
}

function encodeAtomic(type: string, value: unknown, name: string): Uint8Array {
  if (type === 'address') {
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) throw invalid(`${name} must be an address`);
    return bigIntToBytes(BigInt(value), WORD);
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw invalid(`${name} must be a boolean`);
    return bigIntToBytes(value ? 1n : 0n, WORD);
  }
  const int = UINT_RE.exec(type);
  if (int) {
    const bits = Number(int[2]);
    if (bits < 8 || bits > 256 || bits % 8 !== 0) throw invalid(`unknown type ${type}`);
    let n: bigint;
    try {
      n = toBigInt(value, name);
    } catch {
      throw invalid(`${name} must be an integer`);
    }
    const signed = int[1] === '';
    const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
    const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
    if (n < min || n > max) throw invalid(`${name} is out of range for ${type}`);
    return bigIntToBytes(n < 0n ? (1n << 256n) + n : n, WORD); // two's complement
  }
  const bytes = BYTES_RE.exec(type);
  if (bytes) {
    const size = Number(bytes[1]);
    if (size < 1 || size > 32) throw invalid(`unknown type ${type}`);
    const data = hexValue(value, name);
    if (data.length !== size) throw invalid(`${name} must be exactly ${size} bytes`);
    const word = new Uint8Array(WORD);
    word.set(data); // right-padded
    return word;
  }
  throw invalid(`unknown type ${type}`);
}

/** The 32-byte encoding of one member value (`encodeData` member rule of EIP-712). */
function encodeField(type: string, value: unknown, name: string, types: Types): Uint8Array {
  if (own(types, type) !== undefined) return hashStruct(type, value, types);
  if (type === 'bytes') return keccak256(hexValue(value, name));
  if (type === 'string') {
    if (typeof value !== 'string') throw invalid(`${name} must be a string`);
    return keccak256(utf8ToBytes(value));
  }
  if (type.endsWith(']')) {
    const open = type.lastIndexOf('[');
    const itemType = type.slice(0, open);
    const sizeText = type.slice(open + 1, -1);
    if (!Array.isArray(value)) throw invalid(`${name} must be an array`);
    if (sizeText !== '' && value.length !== Number(sizeText)) throw invalid(`${name} must have ${sizeText} items`);
    return keccak256(concatBytes(...value.map((item, i) => encodeField(itemType, item, `${name}[${i}]`, types))));
  }
  return encodeAtomic(type, value, name);
}

function hashStruct(type: string, data: unknown, types: Types): Uint8Array {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid(`value of ${type} must be an object`);
  const record = data as Record<string, unknown>;
  const words: Uint8Array[] = [keccak256(encodeType(type, types))];
  for (const field of own(types, type)!) {
    const value = own(record, field.name);
    if (value === undefined) throw invalid(`missing ${type}.${field.name}`);
    words.push(encodeField(field.type, value, `${type}.${field.name}`, types));
  }
  return keccak256(concatBytes(...words));
}

function validateTypes(types: unknown): Types {
  assertObject(types, 'types', 'ERR_INVALID_PAYLOAD');
  for (const [name, fields] of Object.entries(types)) {
    if (!Array.isArray(fields)) throw invalid(`types.${name} must be an array`);
    for (const field of fields as unknown[]) {
      const f = field as Partial<TypedDataField> | null;
      if (typeof f !== 'object' || f === null || typeof f.name !== 'string' || typeof f.type !== 'string') {
        throw invalid(`types.${name} members must be {name, type} strings`);
      }
      const base = f.type.replace(ARRAY_SUFFIX, '');
      if (!Object.hasOwn(types, base) && !isAtomic(base)) throw invalid(`unknown type ${f.type}`);
    }
  }
  return types as Types;
}

function isAtomic(type: string): boolean {
  if (type === 'address' || type === 'bool' || type === 'string' || type === 'bytes') return true;
  const int = UINT_RE.exec(type);
  if (int) {
    const bits = Number(int[2]);
    return bits >= 8 && bits <= 256 && bits % 8 === 0;
  }
  const bytes = BYTES_RE.exec(type);
  return bytes !== null && Number(bytes[1]) >= 1 && Number(bytes[1]) <= 32;
}

/**
 * The EIP-712 digest of typed data: `keccak256(0x1901 || hashStruct(domain) ||
 * hashStruct(message))`, supporting nested structs, arrays (fixed and dynamic, nested),
 * `bytes`, `string` and all atomic types. Throws `ERR_INVALID_PAYLOAD` for malformed data.
 *
 * @example
 * ```ts
 * const digest = hashTypedData({
 *   domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCC...' },
 *   types: { Person: [{ name: 'name', type: 'string' }, { name: 'wallet', type: 'address' }], Mail: [...] },
 *   primaryType: 'Mail',
 *   message: { from: { name: 'Cow', wallet: '0xCD2a...' }, to: { ... }, contents: 'Hello, Bob!' },
 * });
 * ```
 */
export function hashTypedData(typedData: TypedData): Uint8Array<ArrayBuffer> {
  assertObject(typedData, 'typedData', 'ERR_INVALID_PAYLOAD');
  const domain = typedData.domain ?? {};
  assertObject(domain, 'typedData.domain', 'ERR_INVALID_PAYLOAD');
  const given = validateTypes(typedData.types);
  const types: Types = { EIP712Domain: domainFields(domain), ...given };
  const { primaryType } = typedData;
  if (typeof primaryType !== 'string' || own(types, primaryType) === undefined) {
    throw invalid('primaryType must name a struct in types');
  }
  const parts = [Uint8Array.of(0x19, 0x01), hashStruct('EIP712Domain', domain, types)];
  if (primaryType !== 'EIP712Domain') parts.push(hashStruct(primaryType, typedData.message, types));
  return keccak256(concatBytes(...parts));
}
