// The listwatch.keyPrefix setting: used when valid, replaced by the default (with a reason) when not.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContinueTokenExplanation } from '../../../src/engine';
import * as fs from 'fs';
import * as path from 'path';
import { activeApi, setKeyPrefix } from './extension-api';
import { fixtureUri, fixturesDir } from './fixture-tokens';
import { continueVectors } from './upstream-vectors';

const cases: ReadonlyArray<{ name: string; value: unknown; keyPrefix: string; problem?: RegExp }> =
  [
    { name: 'unset', value: undefined, keyPrefix: '/registry/pods/' },
    {
      name: 'another resource',
      value: '/registry/services/specs/',
      keyPrefix: '/registry/services/specs/',
    },
    {
      name: 'custom etcd prefix',
      value: '/prod/registry/pods/',
      keyPrefix: '/prod/registry/pods/',
    },
    {
      name: 'relative path',
      value: 'registry/pods/',
      keyPrefix: '/registry/pods/',
      problem:
        /listwatch\.keyPrefix: "registry\/pods\/" is not an etcd key path: a key prefix must start with '\/'.*Using the default \/registry\/pods\//s,
    },
    { name: 'empty', value: '', keyPrefix: '/registry/pods/', problem: /must start with '\/'/ },
    {
      name: 'not a string',
      value: 42,
      keyPrefix: '/registry/pods/',
      problem: /must be a string, got 42/,
    },
  ];

describe('listwatch.keyPrefix setting', () => {
  after(() => setKeyPrefix(undefined));
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeAllEditors'));

  for (const c of cases) {
    it(`${c.name}: decodes against ${c.keyPrefix}`, async () => {
      const api = await activeApi();
      await setKeyPrefix(c.value);
      const setting = api.keyPrefixSetting();
      assert.strictEqual(setting.keyPrefix, c.keyPrefix, `${c.name}: key prefix`);
      if (c.problem)
        assert.match(setting.problem ?? '(no problem reported)', c.problem, `${c.name}: problem`);
      else assert.strictEqual(setting.problem, undefined, `${c.name}: unexpected problem`);
      const e = await vscode.commands.executeCommand<ContinueTokenExplanation>(
        'listwatch.decodeContinueToken',
        continueVectors[0].token,
      );
      assert.strictEqual(
        e?.startKey?.absolute,
        `${c.keyPrefix}key`,
        `${c.name}: decoded start key`,
      );
    });
  }

  // The suite opens one folder (test/fixtures), where folder and workspace settings coincide: this
  // shows a folder's value winning over the user's for its documents.
  it("is read for the document's folder: a folder setting overrides the user's", async () => {
    const folder = vscode.workspace.workspaceFolders![0];
    const settingsDir = path.join(fixturesDir(), '.vscode');
    const hadSettings = fs.existsSync(settingsDir);
    const config = vscode.workspace.getConfiguration('listwatch', folder.uri);
    const decodeIn = async (document: vscode.TextDocument): Promise<string | undefined> => {
      await vscode.window.showTextDocument(document);
      const e = await vscode.commands.executeCommand<ContinueTokenExplanation>(
        'listwatch.decodeContinueToken',
        continueVectors[0].token,
      );
      return e?.startKey?.absolute;
    };
    const inFolder = await vscode.workspace.openTextDocument(fixtureUri('pod-list.json'));
    await setKeyPrefix('/registry/secrets/');
    try {
      await config.update(
        'keyPrefix',
        '/registry/leases/',
        vscode.ConfigurationTarget.WorkspaceFolder,
      );
      assert.strictEqual(await decodeIn(inFolder), '/registry/leases/key');
      await config.update('keyPrefix', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
      assert.strictEqual(await decodeIn(inFolder), '/registry/secrets/key');
    } finally {
      await config.update('keyPrefix', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
      await setKeyPrefix(undefined);
      if (!hadSettings) fs.rmSync(settingsDir, { recursive: true, force: true });
    }
  });

  it('declares the default and the rule in the manifest', () => {
    const property = vscode.extensions.getExtension('listwatch-inspector.listwatch-inspector')
      ?.packageJSON.contributes.configuration.properties['listwatch.keyPrefix'];
    assert.strictEqual(property.default, '/registry/pods/');
    assert.strictEqual(property.pattern, '^/');
  });
});
