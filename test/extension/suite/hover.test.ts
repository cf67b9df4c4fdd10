// The hover over continue tokens, asked of the real VS Code through vscode.executeHoverProvider.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { explainContinueToken } from '../../../src/engine';
import { ContinueTokenHoverProvider } from '../../../src/extension/continue-token-hover';
import { activeApi, setKeyPrefix } from './extension-api';
import {
  absoluteStartKey,
  controlPictures,
  fixtureFiles,
  fixtureUri,
  tokensInFixture,
} from './fixture-tokens';
import { continueTokenHovers, hoverMarkdown, hoversAt, unescapeMarkdown } from './hover-text';
import { scratchDocument } from './scratch-documents';
import { continueVectors, vectorKeyPrefix } from './upstream-vectors';

const defaultKeyPrefix = '/registry/pods/';

describe('hover over continue tokens', () => {
  before(async () => {
    await activeApi();
    await setKeyPrefix(undefined);
  });

  for (const name of fixtureFiles) {
    it(`explains every token in ${name}`, async () => {
      const tokens = tokensInFixture(name);
      assert.ok(tokens.length > 0, `${name}: no continue tokens found in the fixture`);
      const document = await vscode.workspace.openTextDocument(fixtureUri(name));
      for (const t of tokens) {
        const where = `${name}:${t.line + 1}:${t.start + 1}`;
        const middle = new vscode.Position(t.line, Math.floor((t.start + t.end) / 2));
        const hovers = continueTokenHovers(await hoversAt(document.uri, middle));
        assert.strictEqual(
          hovers.length,
          1,
          `${where}: expected one continue-token hover (languageId ${document.languageId})`,
        );
        const range = hovers[0].range;
        assert.ok(
          range && range.start.character === t.start && range.end.character === t.end,
          `${where}: hover range ${JSON.stringify(range)} should cover the token [${t.start}, ${t.end})`,
        );
        const text = unescapeMarkdown(hoverMarkdown(hovers));
        const explanation = explainContinueToken(t.token, defaultKeyPrefix);
        if (explanation.valid) {
          assert.ok(
            t.decoded,
            `${where}: the engine accepts a token Node cannot decode: ${t.token}`,
          );
          assert.ok(
            text.includes(t.decoded.rv),
            `${where}: hover lacks rv ${t.decoded.rv}:\n${text}`,
          );
          const start = controlPictures(absoluteStartKey(defaultKeyPrefix, t.decoded.start));
          assert.ok(text.includes(start), `${where}: hover lacks the start key ${start}:\n${text}`);
        } else {
          const message = explanation.error?.message.trimEnd() ?? '';
          assert.ok(
            message.startsWith('continue key is not valid'),
            `${where}: unexpected error ${message}`,
          );
          assert.ok(
            text.includes(message),
            `${where}: hover lacks upstream's message "${message}":\n${text}`,
          );
        }
      }
    });
  }

  it("reports an invalid token in bad-tokens.log with upstream's message", () => {
    const invalid = tokensInFixture('bad-tokens.log').filter(
      (t) => !explainContinueToken(t.token, defaultKeyPrefix).valid,
    );
    assert.ok(invalid.length > 0, 'bad-tokens.log holds no token the apiserver refuses');
  });

  it("shows upstream's exact verdict for each Test_decodeContinue vector", async () => {
    await setKeyPrefix(vectorKeyPrefix);
    try {
      const content = continueVectors
        .map((v) => `I0101 request.go:1] GET /api/v1/pods?continue=${v.token}&limit=2`)
        .join('\n');
      const document = await scratchDocument('vectors.log', content);
      assert.strictEqual(document.languageId, 'log');
      for (const [line, v] of continueVectors.entries()) {
        const column = document.lineAt(line).text.indexOf(v.token) + 5;
        const text = unescapeMarkdown(
          hoverMarkdown(
            continueTokenHovers(await hoversAt(document.uri, new vscode.Position(line, column))),
          ),
        );
        if (v.error) {
          assert.ok(
            text.includes(v.error.trimEnd()),
            `${v.name}: hover lacks "${v.error}":\n${text}`,
          );
          assert.match(text, /invalid/, `${v.name}: not called invalid`);
        } else {
          assert.ok(
            text.includes(v.fromKey!) && text.includes(v.rv!),
            `${v.name}: hover lacks ${v.fromKey} / rv ${v.rv}:\n${text}`,
          );
          assert.match(text, /valid/, `${v.name}: not called valid`);
        }
      }
    } finally {
      await setKeyPrefix(undefined);
    }
  });

  it('links to the decoder with a command only that command may run', async () => {
    const [t] = tokensInFixture('kubectl-v8-1.33.log');
    const document = await vscode.workspace.openTextDocument(fixtureUri('kubectl-v8-1.33.log'));
    const [hover] = continueTokenHovers(
      await hoversAt(document.uri, new vscode.Position(t.line, t.start + 1)),
    );
    const markdown = hover.contents[0] as vscode.MarkdownString;
    const link = /\(command:listwatch\.openInDecoder\?([^ )]+)/.exec(markdown.value);
    assert.ok(link, `no decoder link in:\n${markdown.value}`);
    assert.deepStrictEqual(JSON.parse(decodeURIComponent(link[1])), [t.token, defaultKeyPrefix]);
    if (markdown.isTrusted !== undefined) {
      assert.deepStrictEqual(markdown.isTrusted, { enabledCommands: ['listwatch.openInDecoder'] });
    }
    assert.ok(!markdown.supportHtml, 'hover markdown must not render HTML');
    const explanation = await vscode.commands.executeCommand<{ token: string }>(
      'listwatch.openInDecoder',
      ...JSON.parse(decodeURIComponent(link[1])),
    );
    assert.strictEqual(explanation?.token, t.token);
  });

  it('stays silent away from tokens', async () => {
    const document = await scratchDocument(
      'no-token.log',
      'I0101 GET /api/v1/pods?limit=500 200 OK\nno token here',
    );
    for (const position of [
      new vscode.Position(0, 3),
      new vscode.Position(0, 25),
      new vscode.Position(1, 4),
    ]) {
      const hovers = continueTokenHovers(await hoversAt(document.uri, position));
      assert.strictEqual(
        hovers.length,
        0,
        `unexpected hover at ${position.line}:${position.character}: ${hoverMarkdown(hovers)}`,
      );
    }
  });

  it('works in .log, plaintext, json, jsonc and yaml documents', async () => {
    const token = continueVectors[0].token;
    const samples: Array<[string, string, string]> = [
      ['log', 'page.log', `GET /api/v1/pods?continue=${token}`],
      ['plaintext', 'page.txt', `continue=${token}`],
      ['json', 'page.json', `{"metadata": {"continue": "${token}"}}`],
      ['jsonc', 'page.jsonc', `// page 1\n{"metadata": {"continue": "${token}"}}`],
      ['yaml', 'page.yaml', `metadata:\n  continue: ${token}`],
    ];
    for (const [language, name, content] of samples) {
      const document = await scratchDocument(name, content);
      assert.strictEqual(document.languageId, language, `${name}: language`);
      const line = content.split('\n').findIndex((l) => l.includes(token));
      const column = document.lineAt(line).text.indexOf(token) + 3;
      const hovers = continueTokenHovers(
        await hoversAt(document.uri, new vscode.Position(line, column)),
      );
      assert.strictEqual(hovers.length, 1, `${language}: expected a continue-token hover`);
    }
  });

  it('reads only the hovered line, and only a window of a very long one', () => {
    const token = continueVectors[0].token;
    const padding = 'x'.repeat(4 * 1024 * 1024);
    const long = `${padding} GET /api/v1/pods?continue=${token}&limit=1 ${padding}`;
    const linesRead: number[] = [];
    const document = {
      uri: vscode.Uri.parse('untitled:huge.log'),
      lineAt(line: number) {
        linesRead.push(line);
        return { text: long };
      },
      getText() {
        throw new Error('the hover must not read the whole document');
      },
    } as unknown as vscode.TextDocument;
    const character = long.indexOf(token) + 10;
    const hover = new ContinueTokenHoverProvider().provideHover(
      document,
      new vscode.Position(123456, character),
    );
    assert.ok(hover, 'no hover on a token in the middle of an 8 MiB line');
    assert.deepStrictEqual(linesRead, [123456]);
    assert.strictEqual(hover.range?.start.character, long.indexOf(token));
    assert.strictEqual(hover.range?.end.character, long.indexOf(token) + token.length);
  });
});
