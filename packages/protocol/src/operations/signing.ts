import { Type } from '@sinclair/typebox';
import { defineOperation, Obj } from '../descriptor';
import { Enum, HASH_FUNCTIONS, PAYLOAD_ENCODINGS } from '../enums';

/** Spec B: sign raw payloads with a wallet account or private key. */
export const signRawPayloads = defineOperation({
  name: 'sign_raw_payloads',
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOADS',
  intentKey: 'signRawPayloadsIntent',
  resultKey: 'signRawPayloadsResult',
  spec: true,
  parameters: Obj({
    signWith: Type.String({ minLength: 1 }),
    payloads: Type.Array(Type.String(), { minItems: 1, maxItems: 100 }),
    encoding: Enum(PAYLOAD_ENCODINGS),
    hashFunction: Enum(HASH_FUNCTIONS),
  }),
  result: Obj({
    signatures: Type.Array(Obj({ r: Type.String(), s: Type.String(), v: Type.String() })),
  }),
});
