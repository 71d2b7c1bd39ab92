import type { Config } from './config.js';
import type { VirtualClock } from './domain/clock.js';
import type { TokenEpoch } from './domain/token-epoch.js';
import type { Log } from './log.js';
import type { ScenarioController } from './scenarios/controller.js';
import type { Fixtures } from './store/fixtures.js';
import type { Store } from './store/store.js';
import type { Uploads } from './store/uploads.js';

/** What routes and services work with: one world's (`src/worlds/world.ts`), built with it and handed down. */
export interface Deps {
  store: Store;
  uploads: Uploads;
  /** The failure rules in force. */
  scenarios: ScenarioController;
  fixtures: Fixtures;
  config: Config;
  clock: VirtualClock;
  /**
   * The server log: an event (`{level, event, fields, text}`, see `log.ts`), or a bare operational line (level
   * `warn`). Formatted and filtered as the settings say (`--log-format`, `--quiet`).
   */
  log: Log;
  /** Writes a request line (formatted already); null when the log keeps no request lines (`--quiet`). */
  requestLog: ((line: string) => void) | null;
  /**
   * The port the sandbox is served on, known once it listens (port 0 picks one then); null while it is not served.
   * A webhook URL must not point at it.
   */
  ownPort: () => number | null;
  /** Which reset the access tokens issued now belong to (a token from before the last reset is refused). */
  tokens: TokenEpoch;
}
