// Tests for src/server/structured-merge-diff (typed + merge/update.ts): the test tables of
// sigs.k8s.io/structured-merge-diff/v6 merge/*_test.go (v6.3.3), run through the fixture's
// Apply / ForceApply / Update operations (see merge-cases.ts for what was left out).
import * as assert from 'assert';
import { cases, parsers } from './merge-cases';
import { parserFor, runCase } from './merge-fixture';

describe('structured-merge-diff merge (upstream merge/*_test.go tables)', () => {
  for (const [file, table] of Object.entries(cases)) {
    for (const tc of table) {
      it(`${file} ${tc.name}`, () => {
        const typeOf = parserFor(tc.parser === 'DeducedParser' ? 'deduced' : parsers[tc.parser]);
        if (tc.expectError) assert.throws(() => runCase(tc, typeOf));
        else runCase(tc, typeOf);
      });
    }
  }
});
