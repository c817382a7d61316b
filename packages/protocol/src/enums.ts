// The wire's enum value lists, schema-free (the `Enum` schema helper is in descriptor.ts).
import { OAUTH_PROVIDERS } from './oauth-providers.js';

export const PAYLOAD_ENCODINGS = [
  'PAYLOAD_ENCODING_HEXADECIMAL',
  'PAYLOAD_ENCODING_TEXT_UTF8',
  'PAYLOAD_ENCODING_EIP712',
  'PAYLOAD_ENCODING_EIP7702_AUTHORIZATION',
] as const;
export type PayloadEncoding = (typeof PAYLOAD_ENCODINGS)[number];

export const HASH_FUNCTIONS = ['HASH_FUNCTION_NO_OP', 'HASH_FUNCTION_SHA256', 'HASH_FUNCTION_KECCAK256', 'HASH_FUNCTION_NOT_APPLICABLE'] as const;
export type HashFunction = (typeof HASH_FUNCTIONS)[number];

/** What sign_transaction's `unsignedTransaction` is (Turnkey's TransactionType). */
export const TRANSACTION_TYPES = ['TRANSACTION_TYPE_ETHEREUM', 'TRANSACTION_TYPE_SOLANA'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const CURVES = ['CURVE_SECP256K1', 'CURVE_ED25519'] as const;
export type Curve = (typeof CURVES)[number];

export const PATH_FORMATS = ['PATH_FORMAT_BIP32'] as const;
export type PathFormat = (typeof PATH_FORMATS)[number];

export const ADDRESS_FORMATS = ['ADDRESS_FORMAT_UNCOMPRESSED', 'ADDRESS_FORMAT_COMPRESSED', 'ADDRESS_FORMAT_ETHEREUM', 'ADDRESS_FORMAT_SOLANA'] as const;
export type AddressFormat = (typeof ADDRESS_FORMATS)[number];

export const POLICY_EFFECTS = ['EFFECT_ALLOW', 'EFFECT_DENY'] as const;
export type PolicyEffect = (typeof POLICY_EFFECTS)[number];

/** The wire enum of the OAuth 2.0 providers: the `oauth2` rows of the provider table (oauth-providers.ts). */
export type Oauth2Provider = Extract<(typeof OAUTH_PROVIDERS)[number], { kind: 'oauth2' }>['oauth2Provider'];
export const OAUTH2_PROVIDERS: readonly Oauth2Provider[] = OAUTH_PROVIDERS.flatMap((p) => (p.kind === 'oauth2' ? [p.oauth2Provider] : []));

export const AUTHENTICATOR_TRANSPORTS = [
  'AUTHENTICATOR_TRANSPORT_BLE',
  'AUTHENTICATOR_TRANSPORT_INTERNAL',
  'AUTHENTICATOR_TRANSPORT_NFC',
  'AUTHENTICATOR_TRANSPORT_USB',
  'AUTHENTICATOR_TRANSPORT_HYBRID',
] as const;
export type AuthenticatorTransport = (typeof AUTHENTICATOR_TRANSPORTS)[number];

export const SMART_CONTRACT_INTERFACE_TYPES = ['SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM', 'SMART_CONTRACT_INTERFACE_TYPE_SOLANA'] as const;
export type SmartContractInterfaceType = (typeof SMART_CONTRACT_INTERFACE_TYPES)[number];

export const FEATURE_NAMES = [
  'FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY',
  'FEATURE_NAME_WEBAUTHN_ORIGINS',
  'FEATURE_NAME_EMAIL_AUTH',
  'FEATURE_NAME_EMAIL_RECOVERY',
  'FEATURE_NAME_WEBHOOK',
  'FEATURE_NAME_SMS_AUTH',
  'FEATURE_NAME_OTP_EMAIL_AUTH',
  'FEATURE_NAME_AUTH_PROXY',
] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];

export const API_KEY_CURVES = ['API_KEY_CURVE_P256', 'API_KEY_CURVE_SECP256K1', 'API_KEY_CURVE_ED25519'] as const;
export type ApiKeyCurve = (typeof API_KEY_CURVES)[number];

export const SIGNATURE_SCHEMES = ['SIGNATURE_SCHEME_TK_API_P256', 'SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191', 'SIGNATURE_SCHEME_TK_API_ED25519'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** Channel of a one-time code (Turnkey init_otp `otpType`). */
export const OTP_TYPES = ['OTP_TYPE_EMAIL', 'OTP_TYPE_SMS'] as const;
export type OtpType = (typeof OTP_TYPES)[number];

/** Scheme of a `clientSignature` (DESIGN section 2). */
export const CLIENT_SIGNATURE_SCHEMES = ['CLIENT_SIGNATURE_SCHEME_API_P256'] as const;
export type ClientSignatureScheme = (typeof CLIENT_SIGNATURE_SCHEMES)[number];

/** Mnemonic language of export_wallet (BIP39 word lists). */
export const MNEMONIC_LANGUAGES = [
  'MNEMONIC_LANGUAGE_ENGLISH',
  'MNEMONIC_LANGUAGE_SIMPLIFIED_CHINESE',
  'MNEMONIC_LANGUAGE_TRADITIONAL_CHINESE',
  'MNEMONIC_LANGUAGE_CZECH',
  'MNEMONIC_LANGUAGE_FRENCH',
  'MNEMONIC_LANGUAGE_ITALIAN',
  'MNEMONIC_LANGUAGE_JAPANESE',
  'MNEMONIC_LANGUAGE_KOREAN',
  'MNEMONIC_LANGUAGE_SPANISH',
] as const;
export type MnemonicLanguage = (typeof MNEMONIC_LANGUAGES)[number];

/** Accepted BIP39 mnemonic lengths in words. */
export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const;
export type MnemonicLength = (typeof MNEMONIC_LENGTHS)[number];

/** Kind of credential behind an API key or authenticator record. */
export const CREDENTIAL_TYPES = [
  'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR',
  'CREDENTIAL_TYPE_API_KEY_P256',
  'CREDENTIAL_TYPE_API_KEY_SECP256K1',
  'CREDENTIAL_TYPE_API_KEY_ED25519',
  'CREDENTIAL_TYPE_OTP_AUTH_KEY_P256',
  'CREDENTIAL_TYPE_OAUTH_KEY_P256',
  'CREDENTIAL_TYPE_LOGIN',
] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/** Kind of a tag record. */
export const TAG_TYPES = ['TAG_TYPE_USER', 'TAG_TYPE_PRIVATE_KEY'] as const;
export type TagType = (typeof TAG_TYPES)[number];
