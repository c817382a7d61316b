/**
 * Stable error codes shared by the server and the client kit.
 *
 * The string code is the contract (callers switch on it); the HTTP status and the
 * gRPC-style numeric code are derived from this one table. docs/errors.md lists them.
 */
export const errorTable = {
  // request shape
  ERR_MALFORMED_JSON: { status: 400, grpc: 3, message: 'The request body is not valid JSON.' },
  ERR_DUPLICATE_KEY: { status: 400, grpc: 3, message: 'An object in the request body repeats a key.' },
  ERR_INVALID_STRING: { status: 400, grpc: 3, message: 'A string in the request holds a NUL character or an unpaired surrogate.' },
  ERR_INVALID_REQUEST: { status: 400, grpc: 3, message: 'The request does not match the schema of the operation.' },
  ERR_ACTIVITY_TYPE_MISMATCH: { status: 400, grpc: 3, message: 'The activity type does not match the operation path.' },
  ERR_PAYLOAD_TOO_LARGE: { status: 413, grpc: 3, message: 'The request body is too large.' },
  ERR_UNSUPPORTED_MEDIA_TYPE: { status: 415, grpc: 3, message: 'The request body must be application/json.' },
  ERR_ROUTE_NOT_FOUND: { status: 404, grpc: 5, message: 'No such endpoint.' },
  ERR_METHOD_NOT_ALLOWED: { status: 405, grpc: 12, message: 'Method not allowed on this endpoint.' },
  // authentication of the activity API
  ERR_STAMP_MISSING: { status: 401, grpc: 16, message: 'The request carries no X-Stamp or X-Stamp-WebAuthn header.' },
  ERR_STAMP_MALFORMED: { status: 401, grpc: 16, message: 'The stamp header cannot be parsed.' },
  ERR_STAMP_INVALID: { status: 401, grpc: 16, message: 'The stamp signature does not verify over the request body.' },
  ERR_STAMP_KEY_UNKNOWN: { status: 401, grpc: 16, message: 'The stamping key belongs to no user of this organization.' },
  ERR_STAMP_NOT_ACCEPTED: { status: 401, grpc: 16, message: 'This kind of stamp is not accepted by this endpoint.' },
  ERR_API_KEY_EXPIRED: { status: 401, grpc: 16, message: 'The stamping API key has expired.' },
  ERR_TIMESTAMP_OUT_OF_WINDOW: { status: 400, grpc: 3, message: 'timestampMs is older than 1 hour or more than 5 minutes in the future.' },
  ERR_PERMISSION_DENIED: { status: 403, grpc: 7, message: 'The caller may not perform this activity.' },
  // resources
  ERR_ORGANIZATION_NOT_FOUND: { status: 404, grpc: 5, message: 'Organization not found.' },
  ERR_USER_NOT_FOUND: { status: 404, grpc: 5, message: 'User not found.' },
  ERR_WALLET_NOT_FOUND: { status: 404, grpc: 5, message: 'Wallet not found.' },
  ERR_WALLET_ACCOUNT_NOT_FOUND: { status: 404, grpc: 5, message: 'No wallet account or private key matches signWith.' },
  ERR_PRIVATE_KEY_NOT_FOUND: { status: 404, grpc: 5, message: 'Private key not found.' },
  ERR_POLICY_NOT_FOUND: { status: 404, grpc: 5, message: 'Policy not found.' },
  ERR_USER_TAG_NOT_FOUND: { status: 404, grpc: 5, message: 'User tag not found.' },
  ERR_PRIVATE_KEY_TAG_NOT_FOUND: { status: 404, grpc: 5, message: 'Private key tag not found.' },
  ERR_SMART_CONTRACT_INTERFACE_NOT_FOUND: { status: 404, grpc: 5, message: 'Smart contract interface not found.' },
  ERR_OAUTH2_CREDENTIAL_NOT_FOUND: { status: 404, grpc: 5, message: 'OAuth 2.0 credential not found.' },
  ERR_MANIFEST_NOT_FOUND: { status: 404, grpc: 5, message: 'Manifest not found.' },
  ERR_OPERATOR_NOT_FOUND: { status: 404, grpc: 5, message: 'Manifest operator not found.' },
  ERR_FEATURE_NOT_FOUND: { status: 404, grpc: 5, message: 'Organization feature not set.' },
  ERR_ACTIVITY_NOT_FOUND: { status: 404, grpc: 5, message: 'Activity not found.' },
  ERR_API_KEY_NOT_FOUND: { status: 404, grpc: 5, message: 'API key not found.' },
  ERR_AUTHENTICATOR_NOT_FOUND: { status: 404, grpc: 5, message: 'Authenticator not found.' },
  ERR_OAUTH_PROVIDER_NOT_FOUND: { status: 404, grpc: 5, message: 'OAuth provider not found.' },
  // conflicts and state
  ERR_ALREADY_EXISTS: { status: 409, grpc: 6, message: 'A resource with the same unique value already exists.' },
  ERR_ACTIVITY_NOT_PENDING: { status: 409, grpc: 9, message: 'The activity is not awaiting consensus.' },
  ERR_LAST_SIGN_IN_METHOD: { status: 409, grpc: 9, message: "This would remove the user's last way to sign in; add another one first." },
  ERR_TARGET_KEY_REUSED: { status: 409, grpc: 6, message: 'This target public key was already used for an export; generate a new one.' },
  ERR_ALREADY_VOTED: { status: 409, grpc: 6, message: 'This user has already voted on the activity.' },
  ERR_INVALID_QUORUM: { status: 400, grpc: 3, message: 'The quorum threshold must be between 1 and the number of members.' },
  // cryptographic inputs
  ERR_INVALID_PARAMETER: { status: 400, grpc: 3, message: 'A parameter has an invalid value.' },
  ERR_UNSUPPORTED_CURVE_FORMAT: { status: 400, grpc: 3, message: 'The curve, path format and address format do not combine.' },
  ERR_INVALID_PAYLOAD: { status: 400, grpc: 3, message: 'The payload cannot be decoded or hashed as requested.' },
  ERR_INVALID_TRANSACTION: { status: 400, grpc: 3, message: 'The unsigned transaction cannot be parsed, or cannot be signed by this account.' },
  ERR_INVALID_PUBLIC_KEY: { status: 400, grpc: 3, message: 'The public key is not a valid key for its curve.' },
  ERR_INVALID_SIGNATURE: { status: 400, grpc: 3, message: 'A signature in the parameters does not verify.' },
  ERR_INVALID_ATTESTATION: { status: 400, grpc: 3, message: 'The passkey attestation does not verify.' },
  ERR_INVALID_ENCRYPTED_BUNDLE: { status: 400, grpc: 3, message: 'The encrypted bundle cannot be decrypted.' },
  ERR_VERIFICATION_TOKEN_INVALID: { status: 401, grpc: 16, message: 'The verification token is invalid, expired or already used.' },
  ERR_OIDC_TOKEN_INVALID: { status: 401, grpc: 16, message: 'The OIDC token does not verify.' },
  ERR_OAUTH_EXCHANGE_FAILED: { status: 502, grpc: 14, message: 'The OAuth provider refused the authorization code.' },
  // authentication proxy
  ERR_CONFIG_ID_MISSING: { status: 400, grpc: 3, message: 'The X-Auth-Proxy-Config-Id header is required.' },
  ERR_CONFIG_NOT_FOUND: { status: 404, grpc: 5, message: 'No proxy configuration has this id.' },
  ERR_PROXY_DISABLED: { status: 403, grpc: 7, message: 'The authentication proxy is disabled for this organization.' },
  ERR_ORIGIN_NOT_ALLOWED: { status: 403, grpc: 7, message: 'The request origin is not allowed by the proxy configuration.' },
  ERR_AUTH_METHOD_DISABLED: { status: 403, grpc: 7, message: 'This authentication method is disabled.' },
  ERR_OTP_INVALID: { status: 401, grpc: 16, message: 'The one-time code is invalid or expired.' },
  ERR_OTP_ATTEMPTS_EXCEEDED: { status: 429, grpc: 8, message: 'Too many wrong attempts for this code; request a new one.' },
  ERR_RATE_LIMITED: { status: 429, grpc: 8, message: 'Too many requests; try again later.' },
  ERR_VERIFICATION_TOKEN_REQUIRED: { status: 401, grpc: 16, message: 'A verification token is required for this request.' },
  ERR_CLIENT_SIGNATURE_INVALID: { status: 401, grpc: 16, message: 'The client signature does not verify.' },
  ERR_DELIVERY_FAILED: { status: 502, grpc: 14, message: 'The one-time code could not be delivered.' },
  ERR_DELIVERY_NOT_CONFIGURED: { status: 400, grpc: 9, message: 'This server has no transport configured for this kind of one-time code.' },
  // server
  ERR_INTERNAL: { status: 500, grpc: 13, message: 'Internal error.' },
  ERR_UNAVAILABLE: { status: 503, grpc: 14, message: 'The service is temporarily unavailable.' },
} as const satisfies Record<string, { status: number; grpc: number; message: string }>;

/** A stable error code, e.g. `ERR_ORIGIN_NOT_ALLOWED`. */
export type ErrorCode = keyof typeof errorTable;

/** The one error body of every endpoint (DESIGN section 2). */
export interface ErrorBody {
  code: number;
  message: string;
  details: Array<{ errorCode: ErrorCode; field?: string }>;
}

/**
 * HTTP status of an error code.
 * @example httpStatusOf('ERR_ORIGIN_NOT_ALLOWED') // 403
 */
export function httpStatusOf(code: ErrorCode): number {
  return errorTable[code].status;
}

/** True when `value` is one of the known error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(errorTable, value);
}

/**
 * Build the wire error body for a code.
 * @example errorBody('ERR_STAMP_INVALID') // { code: 16, message: '...', details: [{ errorCode: 'ERR_STAMP_INVALID' }] }
 */
export function errorBody(code: ErrorCode, message?: string, field?: string): ErrorBody {
  const entry = errorTable[code];
  return {
    code: entry.grpc,
    message: message ?? entry.message,
    details: [field === undefined ? { errorCode: code } : { errorCode: code, field }],
  };
}
