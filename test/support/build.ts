import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What dist/ is built from: a change to any of them makes it stale. */
const SOURCES = ['src', 'fixtures', 'scenarios', 'scripts/build.mjs', 'package.json', 'package-lock.json'];
/** What a build writes, whose oldest must be newer than every source. */
const OUTPUTS = ['dist/main.js', 'dist/index.js', 'dist/docs-assets', 'dist/dashboard-assets'];

/** The newest modification time under a file or folder, in ms; 0 where there is nothing. */
function newest(path: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/** The oldest modification time of the outputs; 0 where one is missing. */
function oldestOutput(): number {
  return Math.min(...OUTPUTS.map((path) => newest(path)));
}

/**
 * The end-to-end project's global setup: builds dist/ where it is older than what it is built from, so the
 * end-to-end tests run the code as it is now, and a run of unit or API tests never waits for a build.
 */
export default function setup(): void {
  const sources = Math.max(...SOURCES.map((path) => newest(path)));
  if (oldestOutput() > sources) return;
  execFileSync(process.execPath, ['scripts/build.mjs', '--js-only'], { stdio: 'inherit' });
}
