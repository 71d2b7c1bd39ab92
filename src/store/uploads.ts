import { readFile, rm, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { makeDirectories } from './file-system.js';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.pdf': 'application/pdf',
};
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$/;

/** True for a path segment that names a stored upload: no separators, no `..`, no hidden files. */
export function isSafeSegment(segment: string): boolean {
  return SAFE_SEGMENT.test(segment) && !segment.includes('..');
}

/** A file name reduced to what may appear in a URL and on disk. */
export function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+/, '');
  return cleaned.slice(-100) || 'file';
}

/**
 * Uploaded files (registration photo IDs and documents), stored beside the data file under `uploads/`, or in
 * memory with `--in-memory`. Keys are `<businessId>/<name>`; both segments are checked, so no key leaves the folder.
 */
export class Uploads {
  private readonly memory = new Map<string, Uint8Array>();

  constructor(private readonly dir: string | null) {}

  async save(businessId: string, name: string, bytes: Uint8Array): Promise<string> {
    if (!isSafeSegment(businessId) || !isSafeSegment(name)) throw new Error('unsafe upload key');
    const key = `${businessId}/${name}`;
    if (this.dir === null) this.memory.set(key, bytes);
    else {
      await makeDirectories(join(this.dir, businessId));
      await writeFile(join(this.dir, businessId, name), bytes);
    }
    return key;
  }

  async read(businessId: string, name: string): Promise<{ bytes: Uint8Array; contentType: string } | null> {
    if (!isSafeSegment(businessId) || !isSafeSegment(name)) return null;
    const contentType = CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
    if (this.dir === null) {
      const bytes = this.memory.get(`${businessId}/${name}`);
      return bytes ? { bytes, contentType } : null;
    }
    try {
      return { bytes: await readFile(join(this.dir, businessId, name)), contentType };
    } catch {
      return null;
    }
  }

  /** Forgets every upload (reset). */
  async clear(): Promise<void> {
    this.memory.clear();
    if (this.dir !== null) await rm(this.dir, { recursive: true, force: true });
  }
}
