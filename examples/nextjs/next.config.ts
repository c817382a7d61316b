import type { NextConfig } from 'next';

// Nothing walletkit-specific: no transpilePackages, no webpack aliases, no polyfills.
const nextConfig: NextConfig = {};

export default nextConfig;
