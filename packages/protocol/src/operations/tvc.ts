import { Type } from '@sinclair/typebox';
import { defineOperation, Obj } from '../descriptor.js';
import { Id, MAX_ITEMS, Name, PublicKeyHex, SignatureHex, Threshold } from '../fields.js';

/**
 * Extra, this project's own (Turnkey creates manifests through TVC app deployments, which are
 * out of scope): register a manifest and its operator set so create_tvc_manifest_approvals has
 * something to approve. `manifest` is the manifest as JSON text; operators sign its UTF-8 bytes.
 * @example { manifest: '{"name":"app"}', operators: [{ name: 'op1', publicKey: '02ab...' }], threshold: 1 } // -> { manifestId, operatorIds }
 */
export const createTvcManifest = defineOperation({
  name: 'create_tvc_manifest',
  spec: false,
  parameters: Obj({
    manifest: Type.String({ minLength: 2, maxLength: 65536 }),
    operators: Type.Array(Obj({ name: Name, publicKey: PublicKeyHex }), { minItems: 1, maxItems: MAX_ITEMS }),
    /** At most the number of operators (checked by the server: ERR_INVALID_QUORUM). */
    threshold: Threshold,
  }),
  result: Obj({ manifestId: Type.String(), operatorIds: Type.Array(Type.String()) }),
});

/**
 * Spec B: record operators' approvals (signatures) of a manifest.
 * @example { manifestId, approvals: [{ operatorId, signature: '3045...' }] } // -> { approvalIds }
 */
export const createTvcManifestApprovals = defineOperation({
  name: 'create_tvc_manifest_approvals',
  spec: true,
  parameters: Obj({
    manifestId: Id,
    approvals: Type.Array(Obj({ operatorId: Id, signature: SignatureHex }), { minItems: 1, maxItems: MAX_ITEMS }),
  }),
  result: Obj({ approvalIds: Type.Array(Type.String()) }),
});
