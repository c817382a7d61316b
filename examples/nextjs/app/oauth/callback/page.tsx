'use client';

import { useRouter } from 'next/navigation';
import { OAuthCallback } from '@walletkit/react';

/** The OAuth redirect URI: hands the provider's reply to the popup's opener, or finishes a redirect login. */
export default function OAuthCallbackPage() {
  const router = useRouter();
  return <OAuthCallback onComplete={() => router.replace('/wallet')} />;
}
