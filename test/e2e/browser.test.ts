import { afterAll } from 'vitest';
import { chromiumMissing, closeChromium } from '../support/chromium.js';

// Every test of a page in real Chromium, in one file: they run one after the other on one browser
// (`test/support/chromium.ts`), not two browsers side by side on a small machine. Each part is a module of its own.
import './browser/dashboard.js';
import './browser/dashboard-widths.js';
import './browser/docs.js';

// The default reporter shows a skipped file as a bare count: this line, under the file's name, says why and what
// to install. Each skipped test carries the same words as its note (`--reporter=verbose`, the JSON report).
if (chromiumMissing !== undefined) console.warn(chromiumMissing);

afterAll(closeChromium);
