/**
 * The wallet's Security screen: the user's sign-in methods (email, phone, linked OAuth providers,
 * passkeys), linking and unlinking them, and sessions. (Filled in by the account-management work
 * of issue 15; this is its placeholder so the wallet screens can mount it.)
 */
export function SecurityScreen() {
  return null;
}
