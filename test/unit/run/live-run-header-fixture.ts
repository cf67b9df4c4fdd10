// Test fixture: the header a live run's trace starts with (src/server's recorder writes it so),
// for the tests that build a live run's model by hand.
import type { RunHeader } from '../../../src/run/run-model';
import { traceFormat, traceVersion } from '../../../src/run/trace/trace-format';

/** A live run's header: profile 1.36, no seed and no parameters (a live run has neither). */
export function liveRunHeader(): RunHeader {
  return {
    format: traceFormat,
    version: traceVersion,
    scenario: 'live',
    profile: '1.36',
    seed: 0,
    params: {},
  };
}
