import { Type } from '@sinclair/typebox';
import { defineOperation, Obj, Enum } from '../descriptor.js';
import { FEATURE_NAMES } from '../enums.js';
import { Id, Jwt, MAX_ITEMS, Name, Threshold } from '../fields.js';
import { ClientSignature, Feature, RootUserParams, WalletParams, WalletResult } from '../params.js';

/**
 * Extra (Turnkey ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8, current): create a sub-organization
 * (one per end user), optionally with a wallet, atomically. V8 differs from V7 only in that
 * root users' OAuth providers may carry `oidcClaims` instead of `oidcToken`, which the spec's
 * signup requires. `verificationToken` marks the contact verified; `clientSignature` binds the
 * request to the key named in the token.
 * @example { subOrganizationName: 'user-1', rootUsers: [{ userName: 'a@example.com', userEmail: 'a@example.com', apiKeys: [], authenticators: [], oauthProviders: [] }], rootQuorumThreshold: 1 }
 */
export const createSubOrganization = defineOperation({
  name: 'create_sub_organization',
  spec: false,
  parameters: Obj({
    subOrganizationName: Name,
    rootUsers: Type.Array(RootUserParams, { minItems: 1, maxItems: MAX_ITEMS }),
    /** At most the number of root users (checked by the server: ERR_INVALID_QUORUM). */
    rootQuorumThreshold: Threshold,
    wallet: Type.Optional(WalletParams),
    /** Ours (signup_v2's `userTag`): name of a user tag the new organization gets, holding its root users. */
    rootUserTag: Type.Optional(Name),
    disableEmailRecovery: Type.Optional(Type.Boolean()),
    disableEmailAuth: Type.Optional(Type.Boolean()),
    disableSmsAuth: Type.Optional(Type.Boolean()),
    disableOtpEmailAuth: Type.Optional(Type.Boolean()),
    verificationToken: Type.Optional(Jwt),
    clientSignature: Type.Optional(ClientSignature),
  }),
  result: Obj({
    subOrganizationId: Type.String(),
    wallet: Type.Optional(WalletResult),
    rootUserIds: Type.Array(Type.String()),
  }),
});

/**
 * Spec B: set the root quorum (members and approvals needed). The result is an empty object.
 * @example { threshold: 2, userIds: [a, b, c] } // -> {}
 */
export const updateRootQuorum = defineOperation({
  name: 'update_root_quorum',
  spec: true,
  parameters: Obj({
    threshold: Threshold,
    userIds: Type.Array(Id, { minItems: 1, maxItems: MAX_ITEMS }),
  }),
  result: Obj({}),
});

/**
 * Extra (Turnkey ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE): set (or overwrite) a feature, so that
 * remove_organization_feature has something to remove. Returns the resulting feature list.
 * @example { name: 'FEATURE_NAME_WEBAUTHN_ORIGINS', value: 'https://app.example' } // -> { features }
 */
export const setOrganizationFeature = defineOperation({
  name: 'set_organization_feature',
  spec: false,
  parameters: Obj({ name: Enum(FEATURE_NAMES), value: Type.String({ maxLength: 4096 }) }),
  result: Obj({ features: Type.Array(Feature) }),
});

/**
 * Spec B: remove a feature; returns the resulting feature list.
 * @example { name: 'FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY' } // -> { features: [] }
 */
export const removeOrganizationFeature = defineOperation({
  name: 'remove_organization_feature',
  spec: true,
  parameters: Obj({ name: Enum(FEATURE_NAMES) }),
  result: Obj({ features: Type.Array(Feature) }),
});
