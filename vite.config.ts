import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Writes which source modules each JS chunk holds (dist/.vite/chunks.json), so
 * scripts/check-bundle-size.mjs can add up what each route loads and prove the chart library
 * stays in the dashboard's lazy chunk.
 */
function chunkReport(): Plugin {
  return {
    name: 'leadnest-chunk-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: Record<
        string,
        { imports: string[]; dynamicImports: string[]; modules: string[]; isEntry: boolean }
      > = {};
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        chunks[item.fileName] = {
          imports: item.imports,
          dynamicImports: item.dynamicImports,
          modules: item.moduleIds.map((id) => path.relative(process.cwd(), id)),
          isEntry: item.isEntry,
        };
      }
      const dir = path.resolve('dist/.vite');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'chunks.json'), JSON.stringify(chunks, null, 1));
    },
  };
}

const apiTarget = process.env.VITE_API_PROXY ?? 'http://localhost:8093';

export default defineConfig({
  plugins: [
    react(),
    chunkReport(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/*.png', 'templates/*.xlsx'],
      manifest: {
        name: 'LeadNest',
        short_name: 'LeadNest',
        description: 'Real-estate lead management that keeps working offline',
        theme_color: '#1f2937',
        background_color: '#111827',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
      },
      devOptions: { enabled: false },
    }),
  ],
  server: { proxy: { '/api': apiTarget } },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 800 },
});
