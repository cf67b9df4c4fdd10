// The Tokens view: what it lists after decoding, and its copy / re-validate / clear actions.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContinueTokenExplanation } from '../../../src/engine';
import type { TokensViewNode } from '../../../src/extension/tokens/tokens-view';
import { activeApi, setKeyPrefix } from './extension-api';
import { fixtureUri } from './fixture-tokens';
import { scratchDocument } from './scratch-documents';
import { continueVectors } from './upstream-vectors';

const assumed = {
  keyPrefixSource: 'setting',
  keyPrefixDetail: 'assumed: the listwatch.keyPrefix setting',
} as const;

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
      { token: valid.token, keyPrefix: '/registry/pods/', ...assumed },
      { token: invalidVersion.token, keyPrefix: '/registry/pods/', ...assumed },
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
    assert.match(fields['key prefix from'], /^assumed: nothing in the text names the LIST/);
    assert.match(fields['next page'], /^1\.36 \(ListFromCacheSnapshot on\)/);
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
        { token: valid.token, keyPrefix: '/registry/deployments/', ...assumed },
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

  it('Decode All Tokens in File lists each token as a file:line link and invalid ones in Problems', async () => {
    const api = await activeApi();
    const uri = fixtureUri('bad-tokens.log');
    await vscode.window.showTextDocument(uri);
    const result = await vscode.commands.executeCommand<{ tokens: number; invalid: number }>(
      'listwatch.decodeAllTokens',
    );
    assert.deepStrictEqual(result && [result.tokens, result.invalid], [6, 6]);
    const [file] = api.tokensViewRows();
    assert.strictEqual(file.label, 'bad-tokens.log');
    assert.strictEqual(file.description, '6 tokens · 6 invalid');
    assert.deepStrictEqual(
      file.children.map((c) => c.label),
      [8, 36, 64, 92, 120, 148].map((line) => `bad-tokens.log:${line}`),
    );
    assert.strictEqual(file.children[1].description, 'invalid: GenericInvalidKey');
    const problems = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'List/Watch');
    assert.strictEqual(problems.length, 6);
    assert.deepStrictEqual(
      problems.map((d) => d.range.start.line + 1),
      [8, 36, 64, 92, 120, 148],
    );
    assert.match(
      problems[1].message,
      /^Continue token refused \(400 Bad Request\): continue key is not valid: \.\.\/secrets\/kube-system\/admin-token \(key prefix \/registry\/pods\/ from the request URL \/api\/v1\/pods\)$/,
    );
    assert.strictEqual(problems[1].severity, vscode.DiagnosticSeverity.Error);
    // A row opens its token.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const open = file.children[2].command;
    assert.ok(open, 'a file:line row has a command');
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.toString(), uri.toString());
    assert.strictEqual(editor?.selection.start.line, 63);
    assert.ok(editor?.document.getText(editor.selection).startsWith('eyJ2IjoidjEi'));
  });

  it("Decode All: each token's key prefix and its source in the view", async () => {
    const api = await activeApi();
    await vscode.window.showTextDocument(fixtureUri('audit.log'));
    await vscode.commands.executeCommand('listwatch.decodeAllTokens');
    const [file] = api.tokensViewRows();
    assert.strictEqual(file.description, '6 tokens');
    const shop = Object.fromEntries(file.children[1].children.map((c) => [c.label, c.description]));
    assert.strictEqual(shop['key prefix'], '/registry/pods/shop/');
    assert.strictEqual(shop['key prefix from'], 'audit event objectRef: pods in namespace shop');
    assert.strictEqual(shop['start key'], '/registry/pods/shop/api-7d9f8c6b5-2ablc13\u2400');
  });

  it('Decode All: a token kubectl cut is a warning; an edit or Clear Tokens removes the problems', async () => {
    const api = await activeApi();
    const document = await scratchDocument(
      'cut.log',
      'I0312 10:15:07.156590   17122 helper.go:113] "Response Body" body="{\\"metadata\\":{\\"continue\\":\\"eyJ2IjoibWV0 [truncated 99 chars]"\n',
    );
    const editor = await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('listwatch.decodeAllTokens');
    const [problem] = vscode.languages.getDiagnostics(document.uri);
    assert.strictEqual(problem?.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(problem.message, /^Continue token cut short: kubectl cut 99 chars here/);
    const changed = new Promise<void>((resolve) => {
      const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document === document) resolve(subscription.dispose());
      });
    });
    await editor.edit((edit) => edit.insert(new vscode.Position(1, 0), 'more\n'));
    await changed;
    assert.deepStrictEqual(
      vscode.languages.getDiagnostics(document.uri),
      [],
      'stale after an edit',
    );
    assert.deepStrictEqual(api.tokensViewRows(), []);
    await vscode.commands.executeCommand('listwatch.decodeAllTokens');
    assert.strictEqual(vscode.languages.getDiagnostics(document.uri).length, 1);
    await vscode.commands.executeCommand('listwatch.clearTokens');
    assert.deepStrictEqual(vscode.languages.getDiagnostics(document.uri), []);
    assert.deepStrictEqual(api.tokensViewRows(), []);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
});
