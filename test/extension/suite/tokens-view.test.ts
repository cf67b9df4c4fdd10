// The Tokens view: what it lists after decoding, and its copy / re-validate / clear actions.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContinueTokenExplanation } from '../../../src/engine';
import type { TokensViewNode } from '../../../src/extension/tokens-view';
import { activeApi, setKeyPrefix } from './extension-api';
import { continueVectors } from './upstream-vectors';

const valid = continueVectors[0];
const invalidVersion = continueVectors[3];

describe('Tokens view', () => {
  before(async () => {
    await activeApi();
    await setKeyPrefix(undefined);
  });
  beforeEach(() => vscode.commands.executeCommand('listwatch.clearTokens'));
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('lists decoded tokens newest first, once each, expandable into their fields', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('listwatch.decodeContinueToken', valid.token);
    await vscode.commands.executeCommand('listwatch.decodeContinueToken', invalidVersion.token);
    await vscode.commands.executeCommand('listwatch.decodeContinueToken', valid.token);
    const rows = api.tokensViewRows();
    assert.deepStrictEqual(api.recentTokens(), [
      { token: valid.token, keyPrefix: '/registry/pods/' },
      { token: invalidVersion.token, keyPrefix: '/registry/pods/' },
    ]);
    assert.strictEqual(rows.length, 2, JSON.stringify(rows, null, 1));
    assert.strictEqual(rows[0].label, 'rv 1 · key');
    assert.strictEqual(rows[1].label, 'invalid: UnrecognizedEncodedVersion');
    assert.match(rows[0].description, /^eyJ2Ijoi/, 'the description shows the token');
    const fields = Object.fromEntries(rows[0].children.map((c) => [c.label, c.description]));
    assert.strictEqual(fields.rv, '1');
    assert.strictEqual(fields.start, 'key');
    assert.strictEqual(fields['start key'], '/registry/pods/key');
    assert.strictEqual(fields.token, valid.token);
    const invalidFields = Object.fromEntries(rows[1].children.map((c) => [c.label, c.description]));
    assert.strictEqual(invalidFields.error, invalidVersion.error);
  });

  it('copies a token from its context menu', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('listwatch.decodeContinueToken', valid.token);
    const [node] = api.tokensViewNodes();
    const copied = await vscode.commands.executeCommand<string>('listwatch.copyToken', node);
    assert.strictEqual(copied, valid.token);
  });

  it('re-validates a token against the key prefix configured now', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('listwatch.decodeContinueToken', valid.token);
    await setKeyPrefix('/registry/deployments/');
    try {
      const [node] = api.tokensViewNodes() as TokensViewNode[];
      const e = await vscode.commands.executeCommand<ContinueTokenExplanation>(
        'listwatch.revalidateToken',
        node,
      );
      assert.strictEqual(e?.startKey?.absolute, '/registry/deployments/key');
      assert.deepStrictEqual(api.recentTokens(), [
        { token: valid.token, keyPrefix: '/registry/deployments/' },
      ]);
      assert.strictEqual(
        api.tokensViewRows()[0].children.find((c) => c.label === 'start key')?.description,
        '/registry/deployments/key',
      );
    } finally {
      await setKeyPrefix(undefined);
    }
  });

  it('is emptied by Clear Tokens', async () => {
    const api = await activeApi();
    await vscode.commands.executeCommand('listwatch.decodeContinueToken', valid.token);
    assert.strictEqual(api.tokensViewRows().length, 1);
    await vscode.commands.executeCommand('listwatch.clearTokens');
    assert.deepStrictEqual(api.tokensViewRows(), []);
  });

  it('shows control characters of a resume point visibly', async () => {
    const api = await activeApi();
    const token = Buffer.from(
      '{"v":"meta.k8s.io/v1","rv":3,"start":"default/web-1\\u0000"}',
    ).toString('base64url');
    await vscode.commands.executeCommand('listwatch.decodeContinueToken', token);
    const start = api.tokensViewRows()[0].children.find((c) => c.label === 'start');
    assert.strictEqual(start?.description, 'default/web-1\u2400');
  });
});
