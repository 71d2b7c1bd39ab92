import type { ClockView } from '../../contract/control/clock.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';

/** Moves the clock `ms` ahead, running everything that comes due in between, and answers where it stands. */
export async function advanceClock(deps: Pick<Deps, 'clock'>, ms: number): Promise<ClockView> {
  try {
    await deps.clock.advance(ms);
  } catch (error) {
    // Refused before anything moved: past the end of the clock's range.
    if (error instanceof RangeError)
      throw new ApiError(400, error.message, [{ field: 'ms', message: error.message }]);
    throw error;
  }
  return deps.clock.describe();
}

/** Stops the clock where it stands, or lets it run again from there. */
export async function freezeClock(deps: Pick<Deps, 'clock'>, frozen: boolean): Promise<ClockView> {
  await deps.clock.freeze(frozen);
  return deps.clock.describe();
}
