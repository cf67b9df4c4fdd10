// "List/Watch: Check List/Watch Conformance…" in the real extension host against an ApiServer
// started here: the modal says what it will write before anything is; declining sends nothing;
// accepting opens a markdown document with a passing row per check of the battery.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { ApiServer } from '../../../src/server/api-server';
import { activeApi } from './extension-api';
import { allCheckIds } from '../../harness/conform-check-ids';

describe('check list/watch conformance command', function () {
  this.timeout(180_000);
  let server: ApiServer;
  let dir: string;
  const asked: Array<{ message: string; detail: string }> = [];

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'listwatch-conform-ext-'));
    server = await ApiServer.start({ kubeconfigPath: path.join(dir, 'kubeconfig') });
  });
  afterEach(async () => (await activeApi()).useConfirmations(undefined));
  after(async () => {
    await server?.stop();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function answer(run: boolean): Promise<void> {
    asked.length = 0;
    (await activeApi()).useConfirmations({
      confirm: async (message, detail) => {
        asked.push({ message, detail });
        return run;
      },
    });
  }

  it('declined: asks with what it writes, opens nothing', async () => {
    await answer(false);
    const doc = await vscode.commands.executeCommand<vscode.TextDocument | undefined>(
      'listwatch.checkConformance',
      server.kubeconfigPath,
    );
    assert.strictEqual(doc, undefined);
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0].message, /^Check the list\/watch conformance of cluster /);
    assert.match(asked[0].detail, /creates a namespace listwatch-conform-<random>/);
  });

  it('accepted: a markdown document with a passing row per check', async () => {
    await answer(true);
    const doc = await vscode.commands.executeCommand<vscode.TextDocument | undefined>(
      'listwatch.checkConformance',
      server.kubeconfigPath,
    );
    assert.ok(doc, 'a document opened');
    assert.strictEqual(doc.languageId, 'markdown');
    const rows = doc
      .getText()
      .split('\n')
      .filter((l) => /^\| (✅|❌|➖) /.test(l))
      .map((l) => /^\| (\S+) (\S+) \| `([^`]+)` \|/.exec(l)?.slice(2, 4));
    assert.deepStrictEqual(
      rows,
      allCheckIds.map((id) => ['pass', id]),
      doc.getText(),
    );
    assert.match(doc.getText(), /\n17 passed, 0 failed, 0 skipped\n/);
  });
});
