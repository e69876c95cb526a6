import { defineConfig } from 'vite';

// The service runs on PORT (3000): `npm run dev:web` serves the client with hot reload and sends the API there.
const api = process.env.PAYG_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1000,
    rolldownOptions: {
      // the component library marks its modules "use client" for server rendering, which a browser bundle does not need
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE') return;
        handler(level, log);
      },
    },
  },
  server: {
    proxy: Object.fromEntries(['/finance', '/api', '/docs', '/health'].map((path) => [path, { target: api, changeOrigin: false }])),
  },
});
