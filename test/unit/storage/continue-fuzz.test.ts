// Differential fuzz of decodeContinue's canonical fast path (no upstream counterpart): on seeded
// random, mutated and edited tokens, decodeContinue answers exactly what the exact port of
// continue.go answers (result, or error message, reason, cause and stage). The full million runs
// as `npm run fuzz:continue`.
import * as assert from 'assert';
import { runContinueFuzz } from './continue-fuzzing';

describe('decodeContinue fast path: differential fuzz against the exact port', () => {
  it('100,000 seeded inputs: identical results and errors', () => {
    const t = runContinueFuzz(20251, 100_000);
    assert.deepStrictEqual(t.mismatches, [], `${t.mismatchCount} mismatches`);
    // The fuzz is only worth something if both sides of the fast path are exercised.
    assert.ok(t.fastAnswered > t.inputs / 5, `fast path answered ${t.fastAnswered}`);
    assert.ok(t.fastAnsweredEdited > 1000, `edited inputs answered fast: ${t.fastAnsweredEdited}`);
    assert.ok(
      t.acceptedButNotFast > 1000,
      `accepted by the exact port only: ${t.acceptedButNotFast}`,
    );
    for (const reason of [
      'GenericInvalidKey',
      'InvalidStartRV',
      'EmptyStartKey',
      'UnrecognizedEncodedVersion',
    ])
      assert.ok((t.errors[reason] ?? 0) > 100, `${reason}: ${t.errors[reason]}`);
  });
});
