import { type Config, ConfigError, upstreamUrl } from '../config.js';
import type { Log } from '../log.js';
import { nodeFileSystem, type StoreFileSystem } from '../store/file-system.js';
import { shownUpstream } from './proxy.js';
import { Recording } from './recording.js';

/**
 * `--record`'s recording, its folder checked but its file not touched yet; undefined without the setting (or without
 * `--upstream`, which it records). A file that cannot be written is a setting that does not work: a `ConfigError` of
 * one line, which the CLI turns into exit 2.
 */
export async function openRecording(
  config: Pick<Config, 'record' | 'upstream'>,
  fs: StoreFileSystem | undefined,
  log: Log,
  writeEveryMs: number | undefined,
): Promise<Recording | undefined> {
  const upstream = config.upstream === undefined ? undefined : upstreamUrl(config.upstream);
  if (config.record === undefined || upstream === undefined) return undefined;
  try {
    return await Recording.open({
      file: config.record,
      upstream: shownUpstream(upstream),
      fs: fs ?? nodeFileSystem,
      log,
      writeEveryMs,
    });
  } catch (error) {
    const why = String((error as Error)?.message ?? error).replace(/\s+/g, ' ');
    throw new ConfigError(`--record ${config.record} cannot be written: ${why}`);
  }
}
