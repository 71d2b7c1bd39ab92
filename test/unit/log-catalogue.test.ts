import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CataloguedEvent, LOG_EVENTS } from '../../src/log-catalogue.js';

const root = join(import.meta.dirname, '..', '..');

/** Every `.ts` file under src/, but the catalogue itself, with its text. */
async function sources(): Promise<{ file: string; text: string }[]> {
  const files = (await readdir(join(root, 'src'), { recursive: true })).filter(
    (file) => file.endsWith('.ts') && file !== 'log-catalogue.ts',
  );
  return Promise.all(
    files.map(async (file) => ({ file, text: await readFile(join(root, 'src', file), 'utf8') })),
  );
}

describe('the log catalogue', () => {
  it('names every event src/ writes, and writes every event it names', async () => {
    const files = await sources();
    // The compiler already refuses an event the catalogue does not name (`Log` takes catalogued events only);
    // this finds the names written as `event: '…'` anyway, for a failure that says which one.
    const written = files.flatMap(({ text }) => [...text.matchAll(/\bevent: '([\w.]+)'/g)].map((m) => m[1]));
    expect(written.filter((name) => name === undefined || !Object.hasOwn(LOG_EVENTS, name))).toEqual([]);
    // A name no file but the catalogue spells is an event nothing writes any more.
    const unwritten = Object.keys(LOG_EVENTS).filter(
      (name) => !files.some(({ text }) => text.includes(`'${name}'`)),
    );
    expect(unwritten, 'events the catalogue names and no file of src/ writes').toEqual([]);
  });

  it('is what the compiler holds an event to: its name, one of its levels, exactly its fields', () => {
    const good: CataloguedEvent = {
      level: 'info',
      event: 'sandbox.resumed',
      fields: { bulkItems: 1, deliveries: 0, message: 'resuming' },
      text: 'resuming',
    };
    // @ts-expect-error: an event the catalogue does not name
    const unnamed: CataloguedEvent = { level: 'info', event: 'no.such_event', fields: {}, text: '' };
    const wrongLevel: CataloguedEvent<'sandbox.resumed'> = {
      // @ts-expect-error: `sandbox.resumed` is written at `info` only
      level: 'error',
      event: 'sandbox.resumed',
      fields: { bulkItems: 1, deliveries: 0, message: '' },
      text: '',
    };
    const missingField: CataloguedEvent<'sandbox.resumed'> = {
      level: 'info',
      event: 'sandbox.resumed',
      // @ts-expect-error: `message` is missing
      fields: { bulkItems: 1, deliveries: 0 },
      text: '',
    };
    const quietBanner: CataloguedEvent<'listening'> = {
      level: 'info',
      event: 'listening',
      fields: { message: 'm', url: 'u', api: 'a' },
      text: 'm',
    };
    expect([good, unnamed, wrongLevel, missingField, quietBanner].map((e) => e.event)).toEqual([
      'sandbox.resumed',
      'no.such_event',
      'sandbox.resumed',
      'sandbox.resumed',
      'listening',
    ]);
  });

  it('gives every event a level, a sentence and its fields', () => {
    for (const [name, spec] of Object.entries(LOG_EVENTS)) {
      expect(spec.levels.length, name).toBeGreaterThan(0);
      expect(spec.when.length, name).toBeGreaterThan(10);
      expect(Object.keys(spec.fields).length, name).toBeGreaterThan(0);
      const optional: readonly string[] = 'optional' in spec ? spec.optional : [];
      expect(
        optional.filter((field) => !Object.hasOwn(spec.fields, field)),
        name,
      ).toEqual([]);
    }
  });
});
