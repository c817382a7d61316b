import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor';
import { HASH_FUNCTIONS, PAYLOAD_ENCODINGS } from '../enums';
import { MAX_ITEMS } from '../fields';

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
