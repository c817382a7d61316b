import { Type } from '@sinclair/typebox';
import { defineOperation, Obj } from '../descriptor.js';
import { Id, IdList, MAX_ITEMS, Name } from '../fields.js';

/** Spec B: create a user tag and attach it to users. @example { userTagName: 'admins', userIds: [userId] } */
export const createUserTag = defineOperation({
  name: 'create_user_tag',
  spec: true,
  parameters: Obj({ userTagName: Name, userIds: IdList }),
  result: Obj({ userTagId: Type.String(), userIds: Type.Array(Type.String()) }),
});

/**
 * Spec B: rename a user tag and/or change its users, atomically. `newUserTagName` is optional
 * as in Turnkey (the spec does not say which of these are required).
 * @example { userTagId, addUserIds: [a], removeUserIds: [] }
 */
export const updateUserTag = defineOperation({
  name: 'update_user_tag',
  spec: true,
  parameters: Obj({
    userTagId: Id,
    newUserTagName: Type.Optional(Name),
    addUserIds: IdList,
    removeUserIds: IdList,
  }),
  result: Obj({ userTagId: Type.String() }),
});

/** Spec B: delete user tags; the result names the users that lost a tag. @example { userTagIds: [tagId] } */
export const deleteUserTags = defineOperation({
  name: 'delete_user_tags',
  spec: true,
  parameters: Obj({ userTagIds: Type.Array(Id, { minItems: 1, maxItems: MAX_ITEMS }) }),
  result: Obj({ userTagIds: Type.Array(Type.String()), userIds: Type.Array(Type.String()) }),
});

/** Spec B: create a private key tag and attach it to keys. @example { privateKeyTagName: 'hot', privateKeyIds: [keyId] } */
export const createPrivateKeyTag = defineOperation({
  name: 'create_private_key_tag',
  spec: true,
  parameters: Obj({ privateKeyTagName: Name, privateKeyIds: IdList }),
  result: Obj({ privateKeyTagId: Type.String(), privateKeyIds: Type.Array(Type.String()) }),
});

/**
 * Spec B: rename a private key tag and/or change its keys, atomically (`newPrivateKeyTagName`
 * optional as in Turnkey).
 * @example { privateKeyTagId, newPrivateKeyTagName: 'cold', addPrivateKeyIds: [], removePrivateKeyIds: [k] }
 */
export const updatePrivateKeyTag = defineOperation({
  name: 'update_private_key_tag',
  spec: true,
  parameters: Obj({
    privateKeyTagId: Id,
    newPrivateKeyTagName: Type.Optional(Name),
    addPrivateKeyIds: IdList,
    removePrivateKeyIds: IdList,
  }),
  result: Obj({ privateKeyTagId: Type.String() }),
});
