import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../support/docs.js';

// The Dockerfile's instructions, a continued line joined to its start, comments left out.
const instructions = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));
const stages = instructions.filter((line) => line.startsWith('FROM '));

it('names its base image once, in NODE_IMAGE, for both stages', () => {
  expect(instructions[0]).toBe('ARG NODE_IMAGE=node:20-bookworm-slim');
  const base = '$' + '{NODE_IMAGE}'; // the Dockerfile's variable, not a template's
  expect(stages).toEqual([`FROM --platform=$BUILDPLATFORM ${base} AS build`, `FROM ${base}`]);
});

it('gives npm ci a CA bundle only as a build secret, which no layer and no stage of the image keeps', () => {
  const mentions = instructions.filter((line) => /\bca\b|CA_CERTS|cafile/.test(line));
  expect(mentions).toHaveLength(1);
  expect(mentions[0]).toMatch(
    /^RUN --mount=type=secret,id=ca .*NODE_EXTRA_CA_CERTS=\/run\/secrets\/ca.* npm ci /,
  );
  // Used in the build stage, before the image's own stage starts.
  expect(instructions.indexOf(mentions[0] ?? '')).toBeLessThan(instructions.indexOf(stages[1] ?? ''));
});
