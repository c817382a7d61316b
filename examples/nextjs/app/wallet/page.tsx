// A Server Component: it imports the kit's WalletPanel straight from @walletkit/react, whose
// "use client" entry makes it a client boundary.
import { WalletPanel } from '@walletkit/react';
import { SignedIn } from './signed-in';

export default function WalletPage() {
  return (
    <SignedIn>
      <WalletPanel />
    </SignedIn>
  );
}
