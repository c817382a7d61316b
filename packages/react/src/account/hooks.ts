import { useQuery } from '@tanstack/react-query';
import type { OAuthProviderName } from '../client-contract.js';
import { useKitQueryClient, useWalletKitContext } from '../provider/context.js';
import { useKitMutation, useSession } from '../provider/hooks.js';
import {
  addPasskeyMutationOptions,
  linkOAuthMutationOptions,
  linkOAuthNow,
  removePasskeyMutationOptions,
  revokeSessionMutationOptions,
  startContactVerificationMutationOptions,
  unlinkContactMutationOptions,
  unlinkOAuthMutationOptions,
  userQueryOptions,
  verifyContactMutationOptions,
} from '../queries.js';

/**
 * The account hooks: one per action of the Security screen, each a TanStack mutation bound to the
 * kit's client (stamped by the session) that refetches {@link useUser} when it succeeds. A removal
 * that would leave no way to sign in fails with `ERR_LAST_SIGN_IN_METHOD`.
 */

/** The signed-in session's organization ('' while anonymous: the hooks are then idle). */
function useOrganizationId(): string {
  return useSession().session?.organizationId ?? '';
}

/**
 * The signed-in user's profile: email and phone (with whether each is verified), linked social
 * providers, passkeys, sessions (this one marked), API keys and wallets. Idle while anonymous or
 * when the client has no account actions; refetched after every change the kit makes.
 * @example const { data: user } = useUser(); user?.email?.value
 */
export function useUser() {
  const { client } = useWalletKitContext();
  const { session } = useSession();
  return useQuery(
    { ...userQueryOptions(client, session?.organizationId ?? '', session?.userId ?? ''), enabled: session !== undefined && client.account !== undefined },
    useKitQueryClient(),
  );
}

/**
 * Send a one-time code to a new email or phone number (to link it or change to it); then
 * {@link useVerifyContact} with the code.
 * @example const start = useStartContactVerification(); const { otpId } = await start.mutateAsync({ kind: 'phone', contact: '+14155550100' });
 */
export function useStartContactVerification() {
  return useKitMutation((c) => startContactVerificationMutationOptions(c));
}

/**
 * Check the code sent by {@link useStartContactVerification}: the contact is stored verified,
 * replacing the current one of its kind.
 * @example useVerifyContact().mutate({ otpId, code })
 */
export function useVerifyContact() {
  const organizationId = useOrganizationId();
  return useKitMutation((c, q) => verifyContactMutationOptions(c, q, organizationId));
}

/** Remove the email or the phone number. @example useUnlinkContact().mutate('email') */
export function useUnlinkContact() {
  const organizationId = useOrganizationId();
  return useKitMutation((c, q) => unlinkContactMutationOptions(c, q, organizationId));
}

/**
 * Link a social provider to the account: `link(provider)` opens its popup at once (call it in the
 * click handler), then links the identity; the session stays the same.
 * @example const google = useLinkOAuth(); <button onClick={() => google.link('google')}>Link Google</button>
 */
export function useLinkOAuth() {
  const { client } = useWalletKitContext();
  const organizationId = useOrganizationId();
  const mutation = useKitMutation((_c, q) => linkOAuthMutationOptions(q, organizationId));
  type MutateOptions = Parameters<typeof mutation.mutate>[1];
  return { ...mutation, link: (provider: OAuthProviderName, options?: MutateOptions) => mutation.mutate(linkOAuthNow(client, provider), options) };
}

/** Unlink a social provider by its `providerId`. @example useUnlinkOAuth().mutate(providerId) */
export function useUnlinkOAuth() {
  const organizationId = useOrganizationId();
  return useKitMutation((c, q) => unlinkOAuthMutationOptions(c, q, organizationId));
}

/** Register a new passkey (the browser asks), named by the variable. @example useAddPasskey().mutate('Laptop') */
export function useAddPasskey() {
  const organizationId = useOrganizationId();
  return useKitMutation((c, q) => addPasskeyMutationOptions(c, q, organizationId));
}

/** Remove a passkey by its `authenticatorId`. @example useRemovePasskey().mutate(authenticatorId) */
export function useRemovePasskey() {
  const organizationId = useOrganizationId();
  return useKitMutation((c, q) => removePasskeyMutationOptions(c, q, organizationId));
}

/** Revoke another session of the account by its `apiKeyId`. @example useRevokeSession().mutate(apiKeyId) */
export function useRevokeSession() {
  const organizationId = useOrganizationId();
  return useKitMutation((c, q) => revokeSessionMutationOptions(c, q, organizationId));
}
