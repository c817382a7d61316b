import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor.js';
import { ADDRESS_FORMATS, CURVES } from '../enums.js';
import { Bundle, Id, IdList, MAX_ITEMS, Name, PublicKeyHex } from '../fields.js';
import { AddressEntry } from '../params.js';

const AddressFormats = Type.Array(Enum(ADDRESS_FORMATS), { maxItems: ADDRESS_FORMATS.length });

/**
 * Extra (Turnkey ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2): create standalone private keys, so keys
 * exist for private key tags, export and signing by private key id.
 * @example { privateKeys: [{ privateKeyName: 'k1', curve: 'CURVE_SECP256K1', privateKeyTags: [], addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }] }
 */
export const createPrivateKeys = defineOperation({
  name: 'create_private_keys',
  spec: false,
  parameters: Obj({
    privateKeys: Type.Array(
      Obj({
        privateKeyName: Name,
        curve: Enum(CURVES),
        privateKeyTags: IdList,
        addressFormats: AddressFormats,
      }),
      { minItems: 1, maxItems: MAX_ITEMS },
    ),
  }),
  result: Obj({
    privateKeys: Type.Array(Obj({ privateKeyId: Type.String(), addresses: Type.Array(AddressEntry) })),
  }),
});

/**
 * Spec B: export a private key, HPKE-encrypted to `targetPublicKey` (uncompressed P-256 hex).
 * @example { privateKeyId, targetPublicKey: '04ab...' } // -> { privateKeyId, exportBundle }
 */
export const exportPrivateKey = defineOperation({
  name: 'export_private_key',
  spec: true,
  parameters: Obj({ privateKeyId: Id, targetPublicKey: PublicKeyHex }),
  result: Obj({ privateKeyId: Type.String(), exportBundle: Type.String() }),
});

/**
 * Spec B: start a private key import; the result is the enclave-signed bundle carrying the
 * target key the client encrypts the key to.
 * @example { userId } // -> { importBundle }
 */
export const initImportPrivateKey = defineOperation({
  name: 'init_import_private_key',
  spec: true,
  parameters: Obj({ userId: Id }),
  result: Obj({ importBundle: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_IMPORT_PRIVATE_KEY): finish a private key import.
 * @example { userId, privateKeyName: 'imported', encryptedBundle, curve: 'CURVE_SECP256K1', addressFormats: ['ADDRESS_FORMAT_ETHEREUM'] }
 */
export const importPrivateKey = defineOperation({
  name: 'import_private_key',
  spec: false,
  parameters: Obj({
    userId: Id,
    privateKeyName: Name,
    encryptedBundle: Bundle,
    curve: Enum(CURVES),
    addressFormats: AddressFormats,
  }),
  result: Obj({ privateKeyId: Type.String(), addresses: Type.Array(AddressEntry) }),
});
