import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions } from 'vite';

/**
 * The demo app. Its runtime settings (the kit config of the server it talks to) come from
 * `/walletkit.config.json` on its own origin, served by `npm start` (dev) or by
 * `serve.ts` (the production build the e2e tests open), so one build fits any server.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true },
  // The kit from source (the `@walletkit/source` export condition, decision 0017): no build step.
  resolve: { dedupe: ['react', 'react-dom', '@tanstack/react-query'], conditions: ['@walletkit/source', ...defaultClientConditions] },
});
