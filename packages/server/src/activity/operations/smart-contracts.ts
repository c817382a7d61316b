/**
 * Smart contract interfaces (spec B): an Ethereum ABI (JSON array) at a 0x address, or a
 * Solana IDL (JSON object) at a base58 program address, stored as submitted for policies.
 */
import { and, eq } from 'drizzle-orm';
import type { SmartContractInterfaceType } from '@walletkit/protocol';
import { ApiError } from '../../errors.js';
import { newId } from '../../store/ids.js';
import { smartContractInterfaces } from '../../store/schema.js';
import type { HandlerTable } from '../context.js';

const ETHEREUM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Byte length of a base58 string, or undefined when it is not base58. */
function base58Length(value: string): number | undefined {
  let n = 0n;
  for (const c of value) {
    const digit = BASE58.indexOf(c);
    if (digit < 0) return undefined;
    n = n * 58n + BigInt(digit);
  }
  const leadingZeros = /^1*/.exec(value)![0].length;
  return leadingZeros + (n === 0n ? 0 : Math.ceil(n.toString(16).length / 2));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('ERR_INVALID_PARAMETER', 'smartContractInterface is not valid JSON', 'smartContractInterface');
  }
}

/** A JSON object; the members named `K` are the ones read (of any JSON type until checked). */
type JsonObject<K extends string> = Record<string, unknown> & { [P in K]?: unknown };

const isObject = <K extends string = never>(v: unknown): v is JsonObject<K> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Check the address and interface text of a type; returns the address in the form used to
 * detect duplicates (Ethereum addresses compare case-insensitively, checksums aside).
 * @throws ApiError ERR_INVALID_PARAMETER
 */
function validate(type: SmartContractInterfaceType, address: string, text: string): string {
  const doc = parseJson(text);
  if (type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM') {
    if (!ETHEREUM_ADDRESS.test(address)) {
      throw new ApiError('ERR_INVALID_PARAMETER', 'an Ethereum contract address is 0x and 20 bytes of hex', 'smartContractAddress');
    }
    // Solidity ABI JSON: a list of entries; `type` may be omitted (it defaults to "function").
    if (!Array.isArray(doc) || doc.length === 0 || !doc.every((e) => isObject<'type'>(e) && (e.type === undefined || typeof e.type === 'string'))) {
      throw new ApiError('ERR_INVALID_PARAMETER', 'an Ethereum interface is a non-empty JSON ABI array of entries', 'smartContractInterface');
    }
    return address.toLowerCase();
  }
  // Solana public keys are 32 bytes, 32 to 44 base58 characters.
  if (address.length < 32 || address.length > 44 || base58Length(address) !== 32) {
    throw new ApiError('ERR_INVALID_PARAMETER', 'a Solana program address is 32 bytes in base58', 'smartContractAddress');
  }
  if (!isObject<'instructions'>(doc) || !Array.isArray(doc.instructions)) {
    throw new ApiError('ERR_INVALID_PARAMETER', 'a Solana interface is a JSON IDL object with an instructions array', 'smartContractInterface');
  }
  return address;
}

/** Handlers of create/delete_smart_contract_interface. */
export const smartContractHandlers = {
  create_smart_contract_interface: async (params, ctx) => {
    const key = validate(params.type, params.smartContractAddress, params.smartContractInterface);
    const sameType = await ctx.tx
      .select({ address: smartContractInterfaces.smartContractAddress })
      .from(smartContractInterfaces)
      .where(and(eq(smartContractInterfaces.organizationId, ctx.organizationId), eq(smartContractInterfaces.type, params.type)));
    // One interface per contract: two ABIs for one address would make policies ambiguous.
    if (sameType.some((r) => (params.type === 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM' ? r.address.toLowerCase() : r.address) === key)) {
      throw new ApiError('ERR_ALREADY_EXISTS', `an interface for ${params.smartContractAddress} already exists`, 'smartContractAddress');
    }
    const smartContractInterfaceId = newId();
    await ctx.tx.insert(smartContractInterfaces).values({
      id: smartContractInterfaceId,
      organizationId: ctx.organizationId,
      smartContractAddress: params.smartContractAddress,
      smartContractInterface: params.smartContractInterface,
      type: params.type,
      label: params.label,
      notes: params.notes ?? '',
      createdAt: ctx.now(),
    });
    return { smartContractInterfaceId };
  },

  delete_smart_contract_interface: async (params, ctx) => {
    const deleted = await ctx.tx
      .delete(smartContractInterfaces)
      .where(and(eq(smartContractInterfaces.id, params.smartContractInterfaceId), eq(smartContractInterfaces.organizationId, ctx.organizationId)))
      .returning({ id: smartContractInterfaces.id });
    if (deleted.length === 0) {
      throw new ApiError(
        'ERR_SMART_CONTRACT_INTERFACE_NOT_FOUND',
        `smart contract interface ${params.smartContractInterfaceId} not found`,
        'smartContractInterfaceId',
      );
    }
    return { smartContractInterfaceId: params.smartContractInterfaceId };
  },
} satisfies HandlerTable;
