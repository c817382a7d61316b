import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor.js';
import { HASH_FUNCTIONS, PAYLOAD_ENCODINGS, TRANSACTION_TYPES } from '../enums.js';
import { MAX_ITEMS } from '../fields.js';

/**
 * Spec B: sign raw payloads with a wallet account or private key.
 * @example
 * { signWith: '0xAbC...', payloads: ['0x68656c6c6f'], encoding: 'PAYLOAD_ENCODING_HEXADECIMAL',
 *   hashFunction: 'HASH_FUNCTION_KECCAK256' } // -> { signatures: [{ r, s, v }] }
 */
export const signRawPayloads = defineOperation({
  name: 'sign_raw_payloads',
  spec: true,
  parameters: Obj({
    /** Wallet account address, private key address or private key id. */
    signWith: Type.String({ minLength: 1, maxLength: 256 }),
    /** EIP-712 payloads are JSON documents, hence the generous item length. */
    payloads: Type.Array(Type.String({ maxLength: 65536 }), { minItems: 1, maxItems: MAX_ITEMS }),
    encoding: Enum(PAYLOAD_ENCODINGS),
    hashFunction: Enum(HASH_FUNCTIONS),
  }),
  result: Obj({
    signatures: Type.Array(Obj({ r: Type.String(), s: Type.String(), v: Type.String() })),
  }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2, what @turnkey/viem sends): one payload.
 * @example { signWith: '0xAbC...', payload: '0x68656c6c6f', encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_KECCAK256' } // -> { r, s, v }
 */
export const signRawPayload = defineOperation({
  name: 'sign_raw_payload',
  spec: false,
  parameters: Obj({
    signWith: Type.String({ minLength: 1, maxLength: 256 }),
    payload: Type.String({ maxLength: 65536 }),
    encoding: Enum(PAYLOAD_ENCODINGS),
    hashFunction: Enum(HASH_FUNCTIONS),
  }),
  result: Obj({ r: Type.String(), s: Type.String(), v: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_SIGN_TRANSACTION_V2): sign a serialized unsigned transaction
 * and return it signed. Ethereum: RLP of a legacy (EIP-155), EIP-2930, EIP-1559 or EIP-7702
 * transaction; Solana: the wire transaction (legacy or v0) with the signer's slot to fill.
 * @example { signWith: '0xAbC...', unsignedTransaction: '02f8...', type: 'TRANSACTION_TYPE_ETHEREUM' } // -> { signedTransaction: '02f8...' }
 */
export const signTransaction = defineOperation({
  name: 'sign_transaction',
  spec: false,
  parameters: Obj({
    signWith: Type.String({ minLength: 1, maxLength: 256 }),
    /** Hex, with or without `0x`. */
    unsignedTransaction: Type.String({ minLength: 2, maxLength: 262144, pattern: '^(0x)?[0-9a-fA-F]*$' }),
    type: Enum(TRANSACTION_TYPES),
  }),
  result: Obj({ signedTransaction: Type.String() }),
});
