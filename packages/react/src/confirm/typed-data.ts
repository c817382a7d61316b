import { checksumAddress, type TypedData, type TypedDataField } from '@walletkit/crypto';

/**
 * One field of EIP-712 typed data, ready to show: a leaf value as text, a struct's fields, or
 * an array's items. Built from the declared types, so the view shows exactly what is signed
 * (fields in declared order; keys the types do not declare are not signed and not shown).
 */
export type TypedField =
  | { name: string; type: string; kind: 'value'; value: string; missing?: true }
  | { name: string; type: string; kind: 'struct'; fields: TypedField[] }
  | { name: string; type: string; kind: 'array'; items: TypedField[] };

/** Typed data as the confirmation lays it out: domain, primary type, then the message. */
export interface TypedDataView {
  domain: TypedField[];
  primaryType: string;
  message: TypedField[];
}

/** EIP712Domain's fields in the order EIP-712 lists them, for a domain whose types omit it. */
const DOMAIN_FIELDS: readonly TypedDataField[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
  { name: 'salt', type: 'bytes32' },
];

/** Deeper than any real document; stops a hostile self-referencing one from exhausting the stack. */
const MAX_DEPTH = 16;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);

/**
 * A leaf value as text: integers in decimal (whatever spelling the app used: number, decimal
 * or hex string, bigint), addresses in EIP-55, the rest as given.
 * @example leafText('uint256', '0xff') // '255'
 */
export function leafText(type: string, value: unknown): string {
  if (value === undefined || value === null) return '(missing)';
  if (/^u?int\d*$/.test(type)) {
    try {
      return BigInt(value as string | number | bigint).toString();
    } catch {
      return String(value);
    }
  }
  if (type === 'address' && typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)) return checksumAddress(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Uint8Array) return `0x${Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('')}`;
  return String(value);
}

function field(types: TypedData['types'], name: string, type: string, value: unknown, depth: number): TypedField {
  if (depth > MAX_DEPTH) return { name, type, kind: 'value', value: '…' };
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const items = Array.isArray(value) ? value : [];
    return { name, type, kind: 'array', items: items.map((v, i) => field(types, `#${i + 1}`, array[1]!, v, depth + 1)) };
  }
  const struct = own(types, type) as readonly TypedDataField[] | undefined;
  if (struct && type !== 'EIP712Domain') {
    const record = isRecord(value) ? value : {};
    return { name, type, kind: 'struct', fields: struct.map((f) => field(types, f.name, f.type, own(record, f.name), depth + 1)) };
  }
  return { name, type, kind: 'value', value: leafText(type, value), ...(value === undefined || value === null ? { missing: true as const } : {}) };
}

/**
 * Lay typed data out for people: the domain's fields, the primary type, and the message's
 * fields as a tree following the declared types (never raw JSON).
 * @example
 * describeTypedData({ types: { Mail: [{ name: 'contents', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'Demo' }, message: { contents: 'Hi' } })
 * // { domain: [{ name: 'name', type: 'string', kind: 'value', value: 'Demo' }], primaryType: 'Mail',
 * //   message: [{ name: 'contents', type: 'string', kind: 'value', value: 'Hi' }] }
 */
export function describeTypedData(typedData: TypedData): TypedDataView {
  const types = isRecord(typedData.types) ? typedData.types : {};
  const domain = isRecord(typedData.domain) ? typedData.domain : {};
  const declared = own(types, 'EIP712Domain') as readonly TypedDataField[] | undefined;
  const domainFields = declared ?? DOMAIN_FIELDS.filter((f) => own(domain, f.name) !== undefined && own(domain, f.name) !== null);
  const primaryType = String(typedData.primaryType);
  const message = isRecord(typedData.message) ? typedData.message : {};
  const root = field(types, primaryType, primaryType, message, 0);
  return {
    domain: domainFields.map((f) => field(types, f.name, f.type, own(domain, f.name), 1)),
    primaryType,
    // primaryType 'EIP712Domain' signs the domain alone: there is no message to show.
    message: root.kind === 'struct' ? root.fields : [],
  };
}
