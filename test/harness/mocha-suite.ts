// Runs every *.test.js bundled in a folder with mocha, inside the extension host: the body of each
// suite entry point's run() (test/extension/suite, test/extension/installed).
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import { suiteStartMarker } from './suite-marker';

export function runMochaSuite(dir: string): Promise<void> {
  // Waits inside tests (editors opening, the host answering) are bounded by this, not asserted.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
  // LISTWATCH_TEST_GREP=<text> runs only the matching tests (a quicker edit-test loop).
  if (process.env.LISTWATCH_TEST_GREP) mocha.grep(process.env.LISTWATCH_TEST_GREP);
  for (const file of fs.readdirSync(dir).sort()) {
    if (file.endsWith('.test.js')) mocha.addFile(path.join(dir, file));
  }
  console.log(suiteStartMarker);
  return new Promise((resolve, reject) => {
    mocha.run((failures) =>
      failures > 0 ? reject(new Error(`${failures} extension test(s) failed`)) : resolve(),
    );
  });
}
