/**
 * What crosses the enclave's edge sealed: the shapes its callers store and hand back. Apart from
 * the Enclave (index.ts, which re-exports them) so that its helpers import them without a cycle.
 */
import type { Curve } from '@walletkit/crypto';
import type { DerivedAccountPublic } from './key-material.js';

/** A derived account as it is stored: public data and its private key sealed at rest. */
export interface DerivedAccount extends DerivedAccountPublic {
  sealedPrivateKey: Sealed;
}

/** HPKE ciphertext to the at-rest public key: what callers encrypt secrets to, and every value sealed before AES-256-GCM (at-rest.ts). */
export interface HpkeSealed {
  encappedPublic: string;
  ciphertext: string;
}

/** AES-256-GCM under the key derived from the at-rest private key (at-rest.ts): what the enclave seals for itself. Hex. */
export interface AeadSealed {
  nonce: string;
  ciphertext: string;
}

/** A value sealed at rest, as stored in `*_encrypted` columns: either form opens (at-rest.ts `AtRestKey.open`). */
export type Sealed = HpkeSealed | AeadSealed;

/** A key that signs: an account of an HD wallet, or a standalone private key. */
export type SigningKey =
  | { kind: 'walletAccount'; sealedMnemonic: Sealed; curve: Curve; path: string }
  | { kind: 'privateKey'; sealedPrivateKey: Sealed; curve: Curve };
