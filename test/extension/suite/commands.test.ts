// The Decode / Validate / Encode commands, run through vscode.commands.executeCommand.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContinueTokenExplanation } from '../../../src/engine';
import { acceptPrefilledInputBoxes, activeApi, setKeyPrefix } from './extension-api';
import { scratchDocument } from './scratch-documents';
import { continueVectors, vectorKeyPrefix } from './upstream-vectors';

const decode = 'listwatch.decodeContinueToken';
const validate = 'listwatch.validateContinueToken';
const encode = 'listwatch.encodeContinueToken';

function activeDocumentText(): string {
  const editor = vscode.window.activeTextEditor;
  assert.ok(editor, 'no active editor after the command');
  assert.strictEqual(
    editor.document.uri.scheme,
    'listwatch-token',
    `active editor is ${editor.document.uri.toString()}`,
  );
  return editor.document.getText();
}

// Go's json.Marshal of continueToken{"meta.k8s.io/v1", rv, start} for keys without <, > or &.
function goToken(rv: number, start: string): string {
  return Buffer.from(`{"v":"meta.k8s.io/v1","rv":${rv},"start":${JSON.stringify(start)}}`).toString(
    'base64url',
  );
}

describe('commands', () => {
  before(async () => {
    await activeApi();
    await setKeyPrefix(undefined);
  });
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  it('Decode Continue Token explains a token against the configured prefix and shows it', async () => {
    const token = goToken(4711, 'default/web-3\u0000');
    const e = await vscode.commands.executeCommand<ContinueTokenExplanation>(decode, token);
    assert.ok(e?.valid, JSON.stringify(e));
    assert.deepStrictEqual(e.fields, {
      v: 'meta.k8s.io/v1',
      rv: '4711',
      start: 'default/web-3\u0000',
    });
    assert.strictEqual(e.startKey?.absolute, '/registry/pods/default/web-3\u0000');
    const text = activeDocumentText();
    assert.ok(text.includes(token), `document lacks the token:\n${text}`);
    assert.ok(
      text.includes('4711') && text.includes('/registry/pods/default/web-3\u2400'),
      `document lacks rv/start key:\n${text}`,
    );
  });

  it('the decoder reuses one document, "Continue Token", in the active group, lines wrapped', async () => {
    const log = await scratchDocument('first.log', 'nothing here');
    await vscode.window.showTextDocument(log, vscode.ViewColumn.One);
    await vscode.commands.executeCommand(decode, goToken(1, 'default/a\u0000'));
    await vscode.commands.executeCommand(decode, goToken(2, 'default/b\u0000'));
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.toString(), 'listwatch-token:/Continue%20Token');
    assert.strictEqual(editor?.viewColumn, vscode.ViewColumn.One, 'opened in the active group');
    assert.ok(activeDocumentText().includes('default/b␀'), activeDocumentText());
    assert.ok(!activeDocumentText().includes('default/a␀'), 'the second decode replaced the first');
    const tabs = vscode.window.tabGroups.all
      .flatMap((g) => g.tabs)
      .filter(
        (t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === 'listwatch-token',
      );
    assert.strictEqual(tabs.length, 1, 'one decoder tab');
    assert.strictEqual(tabs[0].label, 'Continue Token');
    assert.strictEqual(editor?.document.languageId, 'listwatch-token');
    assert.strictEqual(
      vscode.workspace
        .getConfiguration('editor', { languageId: 'listwatch-token' })
        .get('wordWrap'),
      'on',
    );
  });

  it('the decoder document links the token and the repaired token to Copy', async () => {
    const token = goToken(3, 'default/c\u0000');
    await vscode.commands.executeCommand(decode, `${token}==`);
    const uri = vscode.window.activeTextEditor!.document.uri;
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>(
      'vscode.executeLinkProvider',
      uri,
    );
    const targets = links.map((l) => decodeURIComponent(l.target?.toString() ?? ''));
    assert.deepStrictEqual(targets, [
      `command:listwatch.copyToken?${JSON.stringify([`${token}==`])}`,
      `command:listwatch.copyToken?${JSON.stringify([token])}`,
    ]);
    const copied = await vscode.commands.executeCommand<string>('listwatch.copyToken', token);
    assert.strictEqual(copied, token);
  });

  for (const v of continueVectors) {
    it(`Validate Continue Token: ${v.name}`, async () => {
      const e = await vscode.commands.executeCommand<ContinueTokenExplanation>(
        validate,
        v.token,
        vectorKeyPrefix,
      );
      assert.ok(e, 'no explanation returned');
      if (v.error) {
        assert.strictEqual(e.valid, false, `${v.name}: accepted`);
        assert.strictEqual(e.error?.message, v.error, `${v.name}: message`);
        assert.ok(
          activeDocumentText().includes(v.error.trimEnd()),
          `${v.name}: document lacks the message`,
        );
      } else {
        assert.strictEqual(e.valid, true, `${v.name}: refused: ${e.error?.message}`);
        assert.strictEqual(e.startKey?.absolute, v.fromKey, `${v.name}: start key`);
        assert.strictEqual(e.fields?.rv, v.rv, `${v.name}: rv`);
      }
    });
  }

  it('Validate Continue Token refuses a key prefix argument that is not a path', async () => {
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand(validate, continueVectors[0].token, 'registry/pods/'),
      ),
      /must start with '\/'/,
    );
  });

  it('Decode pre-fills the input box with the token selected in the editor', async () => {
    const token = goToken(99, 'kube-system/coredns-1\u0000');
    const document = await scratchDocument(
      'request.log',
      `GET /api/v1/pods?limit=1&continue=${token} 200 OK`,
    );
    const at = document.getText().indexOf(token);
    // Passing the selection to showTextDocument wins over any view state VS Code restores.
    await vscode.window.showTextDocument(document, {
      selection: new vscode.Range(0, at, 0, at + token.length),
    });
    const e = await acceptPrefilledInputBoxes<ContinueTokenExplanation>(decode);
    assert.strictEqual(e?.token, token);
    assert.strictEqual(e?.startKey?.absolute, '/registry/pods/kube-system/coredns-1\u0000');
    assert.match(
      activeDocumentText(),
      /prefix: {4}\/registry\/pods\/ \(the request URL \/api\/v1\/pods\)/,
    );
  });

  it('Decode takes the key prefix from the document: a namespaced configmaps LIST', async () => {
    const token = goToken(8, 'kube-proxy\u0000');
    const document = await scratchDocument(
      'cm.log',
      `GET /api/v1/namespaces/kube-system/configmaps?limit=1&continue=${token} 200 OK`,
    );
    const at = document.getText().indexOf(token) + 3;
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(0, at, 0, at) });
    const e = await acceptPrefilledInputBoxes<ContinueTokenExplanation>(decode);
    assert.strictEqual(e?.keyPrefix, '/registry/configmaps/kube-system/');
    assert.strictEqual(e?.startKey?.absolute, '/registry/configmaps/kube-system/kube-proxy\u0000');
  });

  it('Decode pre-fills the input box with the token under the cursor', async () => {
    const token = goToken(7, 'default/a\u0000');
    const document = await scratchDocument('list.json', `{"metadata":{"continue":"${token}"}}`);
    const at = document.getText().indexOf(token) + 4;
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(0, at, 0, at) });
    const e = await acceptPrefilledInputBoxes<ContinueTokenExplanation>(decode);
    assert.strictEqual(e?.token, token);
  });

  it('Validate asks for the key prefix with the setting as the default', async () => {
    await setKeyPrefix('/registry/configmaps/');
    try {
      const token = goToken(5, 'ns/cm\u0000');
      const document = await scratchDocument('query.log', `continue=${token}`);
      await vscode.window.showTextDocument(document, { selection: new vscode.Range(0, 12, 0, 12) });
      const e = await acceptPrefilledInputBoxes<ContinueTokenExplanation>(validate);
      assert.strictEqual(e?.keyPrefix, '/registry/configmaps/');
      assert.strictEqual(e?.startKey?.absolute, '/registry/configmaps/ns/cm\u0000');
    } finally {
      await setKeyPrefix(undefined);
    }
  });

  it('Encode Continue Token builds the token the apiserver would hand out', async () => {
    const e = await vscode.commands.executeCommand<ContinueTokenExplanation>(
      encode,
      '/registry/pods/default/web-0\u0000',
      '/registry/pods/',
      42,
    );
    assert.ok(e, 'no explanation returned');
    assert.strictEqual(e.token, goToken(42, 'default/web-0\u0000'));
    assert.strictEqual(e.valid, true);
    assert.strictEqual(e.startKey?.absolute, '/registry/pods/default/web-0\u0000');
    assert.ok(activeDocumentText().includes(e.token));
    // A browser workbench may refuse the clipboard: the note says which happened.
    assert.match(
      activeDocumentText(),
      /Encoded the continue token for key "\/registry\/pods\/default\/web-0\\u0000" at resourceVersion 42 (and copied it to the clipboard|\(the clipboard refused it)/,
    );
  });

  it('Encode keeps int64 resourceVersions exact', async () => {
    const e = await vscode.commands.executeCommand<ContinueTokenExplanation>(
      encode,
      '/registry/pods/a',
      '/registry/pods/',
      '9223372036854775807',
    );
    assert.strictEqual(e?.fields?.rv, '9223372036854775807');
    assert.strictEqual(
      Buffer.from(e.token, 'base64url').toString(),
      '{"v":"meta.k8s.io/v1","rv":9223372036854775807,"start":"a"}',
    );
  });

  it('Encode refuses a key outside the key prefix, as upstream does', async () => {
    const e = await vscode.commands.executeCommand(
      encode,
      '/registry/services/x',
      '/registry/pods/',
      1,
    );
    assert.strictEqual(e, undefined);
  });

  it('Encode refuses a resourceVersion that is not an int64', async () => {
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand(encode, '/registry/pods/a', '/registry/pods/', '12x'),
      ),
      /not a resourceVersion/,
    );
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand(
          encode,
          '/registry/pods/a',
          '/registry/pods/',
          '9223372036854775808',
        ),
      ),
      /does not fit in an int64/,
    );
  });
});
