// Which bytes of a request go upstream as its path: those the app sent after `/api/v1`, never decoded nor resolved.
// The router sees the path decoded (`%2e%2e%5c` as `..\`) and, over a socket, resolved (`/api/v1/../x` as
// `/api/x`); either form sent on would be resolved again upstream, outside its base path (issue #36).

/** A request target's scheme and authority, when it came in absolute form (`GET http://host/api/v1/… HTTP/1.1`). */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/** The path and query of a request target as sent: origin form as is, absolute form less its scheme and host. */
export function originForm(target: string): string {
  const origin = ORIGIN.exec(target);
  if (origin === null) return target;
  return target.slice(origin[0].length) || '/';
}

/** `1` for a segment a URL parser takes for `.`, `2` for `..` (`%2e` counts as a dot, in either case), else 0. */
function dots(segment: string): 0 | 1 | 2 {
  if (segment.length > 6 || segment === '') return 0;
  const plain = segment.toLowerCase().replaceAll('%2e', '.');
  if (plain === '.') return 1;
  return plain === '..' ? 2 : 0;
}

/** The path of a request target: up to its query or fragment. */
export function pathOf(target: string): string {
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

function decoded(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * What follows `/api/v1` in `target` (a path and query as the app sent them), byte for byte: `/customers?page=2`.
 * Undefined where it cannot go upstream as sent: its first segments are not `api` and `v1` as written (only once
 * its dot segments were resolved did it reach `/api/v1`: `/x/../api/v1/…`), or its own dot segments climb above
 * `/api/v1` (`/api/v1/../v1/…`), where the upstream would resolve them above its base path. A dot segment that stays
 * below (`/api/v1/a/../b`) goes as it is: the upstream resolves it inside its base.
 */
export function apiTail(target: string): string | undefined {
  const segments = pathOf(target).split('/');
  const [root, api, v1] = segments;
  if (root !== '' || decoded(api) !== 'api' || decoded(v1) !== 'v1') return undefined;
  let depth = 0;
  for (let i = 3; i < segments.length; i++) {
    const kind = dots(segments[i] ?? '');
    if (kind === 0) depth += 1;
    else if (kind === 2 && --depth < 0) return undefined;
  }
  return target.slice(`/${api}/${v1}`.length);
}
