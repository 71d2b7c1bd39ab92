import { ISOLATED_PREFIX } from '../contract/mounts.js';

// The world of a request is chosen from its target as the client sent it. The URL a `Request` holds has had its dot
// segments resolved already (`/sandboxes/a/__sandbox/%2e%2e/%2e%2e/%2e%2e/__sandbox/reset` is `/__sandbox/reset`
// there), so a path under one sandbox's prefix could otherwise act on the root or on another sandbox.

const PREFIX_SEGMENT = ISOLATED_PREFIX.slice(1);

/** The path of a request target as sent: origin-form up to its query, absolute-form without scheme and authority. */
export function targetPath(target: string): string {
  let path = target;
  if (!path.startsWith('/')) {
    const scheme = path.indexOf('://');
    const slash = scheme === -1 ? -1 : path.indexOf('/', scheme + 3);
    path = slash === -1 ? '/' : path.slice(slash);
  }
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}

/** A segment's text with its percent-escapes decoded where they are valid (a broken one is left as it is). */
function decoded(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether a segment is `.` or `..` once decoded: `%2e`, `.%2E`, `%2E%2e` are too. */
const isDotSegment = (segment: string): boolean => {
  const text = decoded(segment);
  return text === '.' || text === '..';
};

/**
 * Whether a request target could reach past the world its path names: it holds a dot segment (`.` or `..`, plain
 * or percent-encoded, any case) and a `sandboxes` segment as sent (any case, encoded or not: a dot segment before it
 * may be what moves it), or its path as resolved (`resolved`, the path the app would route) is under
 * `/sandboxes/`. Such a request is refused before any world hears it; no well-formed request has a dot segment. A
 * target with neither a `.` nor a `%` is answered without looking further: the common case.
 */
export function crossesWorlds(target: string, resolved: string): boolean {
  if (!target.includes('.') && !target.includes('%')) return false;
  const segments = targetPath(target).split('/');
  if (!segments.some(isDotSegment)) return false;
  return (
    resolved.startsWith(`${ISOLATED_PREFIX}/`) ||
    segments.some((segment) => decoded(segment).toLowerCase() === PREFIX_SEGMENT)
  );
}
