'use client';

import { useEffect } from 'react';
import { useRouter } from 'next/navigation';
import { useWalletKit } from '@walletkit/react';

/** "Log in" opens the kit's modal; once a session exists the wallet page takes over. */
export function LoginButton() {
  const { status, login } = useWalletKit();
  const router = useRouter();
  useEffect(() => {
    if (status === 'authenticated') router.replace('/wallet');
  }, [status, router]);
  return (
    <button type="button" className="primary" disabled={status !== 'anonymous'} onClick={() => login()}>
      Log in
    </button>
  );
}
