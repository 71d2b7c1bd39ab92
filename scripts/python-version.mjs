// Gives the Python package (clients/python/pyproject.toml) the version of package.json. npm runs it as the
// `version` script of `npm version`, after package.json has the new number and before the commit, and stages it.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const file = join(root, 'clients', 'python', 'pyproject.toml');
const text = readFileSync(file, 'utf8');
if (!/^version = "/m.test(text)) throw new Error(`${file} has no version line`);
writeFileSync(file, text.replace(/^version = "[^"]*"$/m, `version = "${version}"`));
