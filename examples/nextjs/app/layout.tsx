import type { Metadata } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { Providers } from './providers';
import { walletKitConfig } from './walletkit-config';
import './globals.css';

export const metadata: Metadata = { title: 'walletkit + Next.js' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Per request: the settings come from the server's environment, the callback from the host.
  const h = await headers();
  const origin = `${h.get('x-forwarded-proto') ?? 'http'}://${h.get('host') ?? 'localhost:3000'}`;
  return (
    <html lang="en">
      <body>
        <Providers config={walletKitConfig()} oauthRedirectUri={`${origin}/oauth/callback`}>
          <main className="page">
            <h1>walletkit + Next.js</h1>
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
