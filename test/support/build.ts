import { execFileSync } from 'node:child_process';

/** Builds dist/ once before the suite, so the end-to-end tests run the code as it is now. */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--js-only'], { stdio: 'inherit' });
}
