import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor.js';
import { OTP_TYPES } from '../enums.js';
import { Email, ExpirationSeconds, Id, Jwt, Name, PublicKeyHex } from '../fields.js';
import { ClientSignature, sessionFields } from '../params.js';

/** The session JWT every login returns (DESIGN section 2, "Session JWT"). */
const SessionResult = Obj({ session: Type.String() });

/**
 * Spec B: log in with a stamp (passkey or API key); `publicKey` becomes an expiring API key
 * of the stamping user. Default lifetime 15 minutes.
 * @example { publicKey: '02ab...', expirationSeconds: '900', invalidateExisting: true } // -> { session }
 */
export const stampLogin = defineOperation({
  name: 'stamp_login',
  spec: true,
  parameters: Obj({ publicKey: PublicKeyHex, ...sessionFields }),
  result: SessionResult,
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_INIT_OTP_V3, the current name: V3 adds the encryption target to
 * the result): send a one-time code to an email or phone. `appName` is required by Turnkey's
 * V3; optional here because the proxy fills it from its configuration.
 * @example { otpType: 'OTP_TYPE_EMAIL', contact: 'a@example.com', otpLength: 6, alphanumeric: false } // -> { otpId, otpEncryptionTargetBundle }
 */
export const initOtp = defineOperation({
  name: 'init_otp',
  spec: false,
  parameters: Obj({
    otpType: Enum(OTP_TYPES),
    /** Email address or E.164 phone number, according to otpType. */
    contact: Type.String({ minLength: 3, maxLength: 320 }),
    /** Spec limits: 6 to 9 characters. */
    otpLength: Type.Optional(Type.Integer({ minimum: 6, maximum: 9 })),
    alphanumeric: Type.Optional(Type.Boolean()),
    appName: Type.Optional(Name),
    emailCustomization: Type.Optional(
      Obj({
        logoUrl: Type.Optional(Type.String({ maxLength: 2048 })),
        magicLinkTemplate: Type.Optional(Type.String({ maxLength: 2048 })),
        templateVariables: Type.Optional(Type.String({ maxLength: 8192 })),
        templateId: Type.Optional(Id),
      }),
    ),
    smsCustomization: Type.Optional(Obj({ template: Type.Optional(Type.String({ maxLength: 1024 })) })),
    userIdentifier: Type.Optional(Type.String({ maxLength: 256 })),
    sendFromEmailAddress: Type.Optional(Email),
    sendFromEmailSenderName: Type.Optional(Name),
    replyToEmailAddress: Type.Optional(Email),
    /** Code lifetime, default 300 s, at most 600 s. */
    expirationSeconds: Type.Optional(ExpirationSeconds),
  }),
  result: Obj({ otpId: Type.String(), otpEncryptionTargetBundle: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_VERIFY_OTP_V2): check the code, sent HPKE-encrypted together with
 * the client's public key, and issue a single-use verification token bound to that key.
 * @example { otpId, encryptedOtpBundle: '{"encappedPublic":"04..","ciphertext":".."}' } // -> { verificationToken }
 */
export const verifyOtp = defineOperation({
  name: 'verify_otp',
  spec: false,
  parameters: Obj({
    otpId: Id,
    encryptedOtpBundle: Type.String({ minLength: 1, maxLength: 4096 }),
    /** Token lifetime, default 3600 s. */
    expirationSeconds: Type.Optional(ExpirationSeconds),
  }),
  result: Obj({ verificationToken: Type.String() }),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_OTP_LOGIN_V2): exchange a verification token for a session.
 * `clientSignature` is required as in V2: the token is always bound to a key at verify.
 * @example { verificationToken, publicKey: '02ab...', clientSignature: { publicKey, scheme: 'CLIENT_SIGNATURE_SCHEME_API_P256', message, signature } }
 */
export const otpLogin = defineOperation({
  name: 'otp_login',
  spec: false,
  parameters: Obj({
    verificationToken: Jwt,
    publicKey: PublicKeyHex,
    ...sessionFields,
    clientSignature: ClientSignature,
  }),
  result: SessionResult,
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_OAUTH_LOGIN): exchange an OIDC token whose nonce is the
 * SHA-256 of `publicKey` for a session of the user with a matching OAuth provider.
 * @example { oidcToken, publicKey: '02ab...' } // -> { session }
 */
export const oauthLogin = defineOperation({
  name: 'oauth_login',
  spec: false,
  parameters: Obj({ oidcToken: Jwt, publicKey: PublicKeyHex, ...sessionFields }),
  result: SessionResult,
});
