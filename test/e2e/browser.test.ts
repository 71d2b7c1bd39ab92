import { afterAll } from 'vitest';
import { closeChromium } from '../support/chromium.js';

// Every test of a page in real Chromium, in one file: they run one after the other on one browser
// (`test/support/chromium.ts`), not two browsers side by side on a small machine. Each part is a module of its own.
import './browser/dashboard.js';
import './browser/docs.js';

afterAll(closeChromium);
