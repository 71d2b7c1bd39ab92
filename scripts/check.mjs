// `npm test`'s first step: the type check and the lint at once (each leaves a core idle most of its time), each
// one's output printed whole once it ends, and a failure of either fails the step.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const bin = (pkg, file) => join(dirname(require.resolve(`${pkg}/package.json`)), file);

const run = (name, args) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => {
      process.stdout.write(`> ${name}${code === 0 ? '' : ` failed (exit ${code})`}\n${out}`);
      resolve(code ?? 1);
    });
  });

const codes = await Promise.all([
  run('typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit']),
  run('lint', [bin('@biomejs/biome', 'bin/biome'), 'check', '--error-on-warnings', 'src', 'test']),
]);
process.exit(codes.some((c) => c !== 0) ? 1 : 0);
