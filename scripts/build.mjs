// Bundles the CLI and the programmatic entry into dist/. One bundled file starts faster than loading the same
// modules from node_modules one by one (docs/performance.md, "Start-up").
// faker stays in a chunk of its own, loaded only when fixtures are generated.
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/**
 * @hono/node-server imports node:http2 for the HTTP/2 requests it can also serve, which loads that module (and
 * what it needs) at every start. The sandbox serves HTTP/1.1 only (its own `node:http` server), so the bundle gives
 * node-server a stand-in: a class no request is an instance of, and the one constant it reads.
 */
const withoutHttp2 = {
  name: 'without-http2',
  setup(build) {
    build.onResolve({ filter: /^node:http2$/ }, (args) =>
      args.importer.includes('@hono/node-server') ? { path: 'http2', namespace: 'without-http2' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'without-http2' }, () => ({
      contents: 'export class Http2ServerRequest {}\nexport const constants = { NGHTTP2_NO_ERROR: 0 };\n',
      loader: 'js',
    }));
  },
};

const { metafile } = await build({
  entryPoints: { main: 'src/main.ts', index: 'src/index.ts' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  // Whitespace and syntax minified, names kept and lines cut at about 200 characters. For an error nobody catches,
  // Node prints the line of the file that threw before the stack: on a bundle minified onto one line that was the
  // whole chunk ahead of the one useful line, and the stack named `s` and `os`. Now it prints one short line and a
  // stack that reads `at resolveConfig`, `at startSandbox` (test/e2e/readable-errors.test.ts). What it costs against
  // full minification, in size and in cold start, is in docs/performance.md ("Start-up"); no minification at all
  // cost more.
  minifyWhitespace: process.env.BUILD_NO_MINIFY !== '1',
  minifySyntax: process.env.BUILD_NO_MINIFY !== '1',
  lineLimit: 200,
  // No `keepNames`: it wraps every function in a naming call, closures made per request included, a cost to every
  // request (docs/performance.md). Kept identifiers are not that, and esbuild still renames one that collides in the
  // bundle (`env` becomes `env2`), so the error classes a user catches name themselves (`keepName` in src/errors.ts).
  sourcemap: 'linked',
  legalComments: 'linked',
  banner: {
    js: "import { createRequire as __sandboxRequire } from 'node:module'; const require = __sandboxRequire(import.meta.url);",
  },
  logLevel: 'warning',
  metafile: true,
  plugins: [withoutHttp2],
});

// Chunks are named by their hash, so each build leaves new ones beside the old: the old go (after the build, so a
// sandbox running from dist/ keeps its chunks until then), and a tarball from `npm pack` carries only what loads.
const built = new Set(Object.keys(metafile.outputs).map((file) => file.replace(/^dist\/chunks\//, '')));
for (const file of await readdir('dist/chunks')) {
  if (!built.has(file)) await rm(join('dist/chunks', file));
}

// The API reference page (/docs) serves Swagger UI's browser files. The image carries dist/ and no node_modules,
// so they travel in dist/docs-assets, where src/openapi/assets.ts looks first (DOCS_ASSETS lists the same three
// files), with swagger-ui-dist's licence and notice.
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
await mkdir('dist/docs-assets', { recursive: true });
for (const file of [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'LICENSE',
  'NOTICE',
]) {
  await copyFile(join(swaggerUi, file), join('dist/docs-assets', file));
}

// The dashboard's browser files (/__sandbox/ui/assets/), found by src/dashboard/app.tsx in dist/dashboard-assets.
await mkdir('dist/dashboard-assets', { recursive: true });
for (const file of ['app.js', 'style.css']) {
  await copyFile(join('src/dashboard/assets', file), join('dist/dashboard-assets', file));
}

// Type declarations of the programmatic API (`import { startSandbox } from 'banking-sandbox'`), for editors and
// type-checked test suites. The test run and the image need only the JavaScript: `--js-only` skips this step.
if (!process.argv.includes('--js-only')) {
  const typescript = dirname(createRequire(import.meta.url).resolve('typescript/package.json'));
  execFileSync(process.execPath, [join(typescript, 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
