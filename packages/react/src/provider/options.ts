import { createContext, useContext } from 'react';
import type { SessionInfo } from '../client-contract.js';

/** Links the auth modal's footer shows (both optional; no footer without either). */
export interface LegalLinks {
  termsUrl?: string | undefined;
  privacyUrl?: string | undefined;
}

/**
 * What the integrator hears from the kit (each optional).
 * - `onAuthenticationSuccess`: a login or sign-up finished (any method), with the new session;
 * - `beforeSessionExpiry`: the session ends in `secondsLeft` (a minute before by default);
 * - `onSessionExpired`: the session ended by itself (not a logout);
 * - `onError`: an action of the kit's components failed (the same error the component shows).
 */
export interface KitCallbacks {
  onAuthenticationSuccess?: ((session: SessionInfo) => void) | undefined;
  beforeSessionExpiry?: ((session: SessionInfo, secondsLeft: number) => void) | undefined;
  onSessionExpired?: (() => void) | undefined;
  onError?: ((error: unknown) => void) | undefined;
}

/** The provider's presentation and callbacks, for the kit's components. */
export interface KitOptions extends KitCallbacks {
  /** The app's name in the auth modal; default wallet_kit_config's `appName`. */
  appName?: string | undefined;
  /** The app's logo (an image URL) in the auth modal; default wallet_kit_config's `logoUrl`. */
  logoUrl?: string | undefined;
  legal?: LegalLinks | undefined;
}

export const KitOptionsContext = createContext<KitOptions>({});

/**
 * The provider's presentation props and callbacks.
 * @example const { appName, legal, onError } = useKitOptions();
 */
export function useKitOptions(): KitOptions {
  return useContext(KitOptionsContext);
}
