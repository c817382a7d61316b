'use client';

import { useEffect, type ReactNode } from 'react';
import { useRouter } from 'next/navigation';
import { useWalletKit } from '@walletkit/react';

/** Shows its children with a session; without one, back to the home page. */
export function SignedIn({ children }: { children: ReactNode }) {
  const { status } = useWalletKit();
  const router = useRouter();
  useEffect(() => {
    if (status === 'anonymous') router.replace('/');
  }, [status, router]);
  return status === 'authenticated' ? children : <p role="status">Loading…</p>;
}
