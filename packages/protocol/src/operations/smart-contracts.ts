import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor.js';
import { SMART_CONTRACT_INTERFACE_TYPES } from '../enums.js';
import { Address, Id, Name, Notes } from '../fields.js';

/**
 * Spec B: store an ABI (Ethereum) or IDL (Solana) as JSON text, for policies to use.
 * `notes` is optional as in Turnkey. The interface is limited to 400 KiB (Turnkey's limit).
 * @example { smartContractAddress: '0xA0b8...', smartContractInterface: '[...]', type: 'SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM', label: 'USDC' }
 */
export const createSmartContractInterface = defineOperation({
  name: 'create_smart_contract_interface',
  spec: true,
  parameters: Obj({
    smartContractAddress: Address,
    smartContractInterface: Type.String({ minLength: 2, maxLength: 400 * 1024 }),
    type: Enum(SMART_CONTRACT_INTERFACE_TYPES),
    label: Name,
    notes: Type.Optional(Notes),
  }),
  result: Obj({ smartContractInterfaceId: Type.String() }),
});

/** Spec B: delete a smart contract interface. @example { smartContractInterfaceId } */
export const deleteSmartContractInterface = defineOperation({
  name: 'delete_smart_contract_interface',
  spec: true,
  parameters: Obj({ smartContractInterfaceId: Id }),
  result: Obj({ smartContractInterfaceId: Type.String() }),
});
