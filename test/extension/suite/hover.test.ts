// The hover over continue tokens, asked of the real VS Code through vscode.executeHoverProvider.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { explainContinueToken } from '../../../src/engine';
import { DocumentTokens, contextWindowLines } from '../../../src/extension/tokens/document-tokens';
import { ContinueTokenHoverProvider } from '../../../src/extension/tokens/continue-token-hover';
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

// Go's json.Marshal of continueToken{"meta.k8s.io/v1", rv, start} for keys without <, > or &.
function goToken(rv: number, start: string): string {
  return Buffer.from(`{"v":"meta.k8s.io/v1","rv":${rv},"start":${JSON.stringify(start)}}`).toString(
    'base64url',
  );
}

/** The hover text at the middle of `needle` on `line` of `document`, markdown escapes removed. */
async function hoverTextAt(document: vscode.TextDocument, line: number, needle: string) {
  const column = document.lineAt(line).text.indexOf(needle) + Math.floor(needle.length / 2);
  const hovers = continueTokenHovers(
    await hoversAt(document.uri, new vscode.Position(line, column)),
  );
  return { hovers, text: unescapeMarkdown(hoverMarkdown(hovers)) };
}

describe('hover over continue tokens', () => {
  before(async () => {
    await activeApi();
    await setKeyPrefix(undefined);
  });

  for (const name of fixtureFiles) {
    it(`explains every token in ${name} against its LIST's key prefix`, async () => {
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
        assert.ok(text.includes(`| key prefix | ${t.keyPrefix} (`), `${where}: prefix:\n${text}`);
        assert.strictEqual(
          t.keyPrefixSource === 'setting',
          /key prefix \*\*assumed\*\*/.test(text),
          where,
        );
        const explanation = explainContinueToken(t.token, t.keyPrefix);
        if (explanation.valid) {
          assert.ok(
            t.decoded,
            `${where}: the engine accepts a token Node cannot decode: ${t.token}`,
          );
          assert.ok(
            text.includes(`| rv | ${t.decoded.rv} |`),
            `${where}: hover lacks rv ${t.decoded.rv}:\n${text}`,
          );
          const start = controlPictures(absoluteStartKey(t.keyPrefix, t.decoded.start));
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

  it('audit.log line 3: a LIST of namespace shop resumes under /registry/pods/shop/', async () => {
    const document = await vscode.workspace.openTextDocument(fixtureUri('audit.log'));
    const [, shop] = tokensInFixture('audit.log');
    const { text } = await hoverTextAt(document, shop.line, shop.token);
    assert.ok(
      text.includes(
        '| key prefix | /registry/pods/shop/ (audit event objectRef: pods in namespace shop) |',
      ),
      text,
    );
    assert.ok(text.includes('/registry/pods/shop/api-7d9f8c6b5-2ablc13␀'), text);
  });

  it('names the resource of other LISTs: configmaps in kube-system, apps/v1 deployments', async () => {
    const cm = goToken(5, 'kube-proxy\u0000');
    const deploy = goToken(6, 'prod/checkout\u0000');
    const document = await scratchDocument(
      'others.log',
      [
        `I0312 10:15:07.169284   17122 round_trippers.go:527] "Request" verb="GET" url="https://h/api/v1/namespaces/kube-system/configmaps?continue=${cm}&limit=1" headers=<`,
        `I0312 10:15:07.169284   17122 round_trippers.go:527] "Request" verb="GET" url="https://h/apis/apps/v1/deployments?continue=${deploy}&limit=1" headers=<`,
      ].join('\n'),
    );
    const first = (await hoverTextAt(document, 0, cm)).text;
    assert.ok(first.includes('/registry/configmaps/kube-system/kube-proxy␀'), first);
    assert.ok(!first.includes('/registry/pods/'), first);
    const second = (await hoverTextAt(document, 1, deploy)).text;
    assert.ok(second.includes('/registry/deployments/prod/checkout␀'), second);
  });

  it('labels the key assumed when nothing names the LIST, and uses the setting', async () => {
    await setKeyPrefix('/registry/secrets/');
    try {
      const token = goToken(9, 'shop/db\u0000');
      const document = await scratchDocument('bare.txt', `the token was ${token}`);
      const { text } = await hoverTextAt(document, 0, token);
      assert.match(text, /key prefix \*\*assumed\*\*/);
      assert.ok(
        text.includes(
          '| key prefix | /registry/secrets/ (assumed: nothing in the text names the LIST',
        ),
        text,
      );
      assert.ok(text.includes('/registry/secrets/shop/db␀'), text);
    } finally {
      await setKeyPrefix(undefined);
    }
  });

  it('states where the next page comes from under 1.36, once', async () => {
    const document = await vscode.workspace.openTextDocument(fixtureUri('kubectl-v8-1.33.log'));
    const [t] = tokensInFixture('kubectl-v8-1.33.log');
    const { text } = await hoverTextAt(document, t.line, t.token);
    assert.match(
      text,
      /\| next page \| 1\.36 \(ListFromCacheSnapshot on\): a watch-cache snapshot at revision 48213 when the cache holds one, otherwise etcd at revision 48213; 410 Expired/,
    );
    assert.ok(!/read at etcd revision/.test(text), text);
    for (const row of ['| next page |', '| rv |', '| resumes at |', '| key prefix |'])
      assert.strictEqual(text.split(row).length - 1, 1, `${row} once:\n${text}`);
  });

  it('recognises a token kubectl cut: "kubectl cut N chars here"', async () => {
    const document = await scratchDocument(
      'cut.log',
      'I0312 10:15:07.156590   17122 helper.go:113] "Response Body" body="{\\"metadata\\":{\\"continue\\":\\"eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDgy [truncated 159571 chars]"',
    );
    const { hovers, text } = await hoverTextAt(
      document,
      0,
      'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NDgy',
    );
    assert.strictEqual(hovers.length, 1);
    assert.ok(text.includes('| truncated | kubectl cut 159571 chars here'), text);
  });

  it("shows upstream's exact verdict for each Test_decodeContinue vector", async () => {
    await setKeyPrefix(vectorKeyPrefix);
    try {
      // No request path: the vectors are decoded against the setting, as upstream's test does.
      const content = continueVectors
        .map((v) => `I0101 request.go:1] ?continue=${v.token}&limit=2`)
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

  it('puts the actions on top; its links run only the commands they name', async () => {
    const [t] = tokensInFixture('kubectl-v8-1.33.log');
    const document = await vscode.workspace.openTextDocument(fixtureUri('kubectl-v8-1.33.log'));
    const [hover] = continueTokenHovers(
      await hoversAt(document.uri, new vscode.Position(t.line, t.start + 1)),
    );
    const markdown = hover.contents[0] as vscode.MarkdownString;
    const firstLine = markdown.value.split('\n')[0];
    assert.match(firstLine, /^\[Open in Decoder\]\(command:listwatch\.openInDecoder\?/);
    assert.match(firstLine, /\[Copy Token\]\(command:listwatch\.copyToken\?/);
    const link = /\(command:listwatch\.openInDecoder\?([^ )]+)/.exec(markdown.value);
    assert.ok(link, `no decoder link in:\n${markdown.value}`);
    const args = JSON.parse(decodeURIComponent(link[1]));
    assert.deepStrictEqual(args.slice(0, 2), [t.token, defaultKeyPrefix]);
    assert.strictEqual(args[2].keyPrefixSource, 'request');
    if (markdown.isTrusted !== undefined) {
      assert.deepStrictEqual(markdown.isTrusted, {
        enabledCommands: ['listwatch.openInDecoder', 'listwatch.copyToken'],
      });
    }
    assert.ok(!markdown.supportHtml, 'hover markdown must not render HTML');
    const explanation = await vscode.commands.executeCommand<{ token: string }>(
      'listwatch.openInDecoder',
      ...args,
    );
    assert.strictEqual(explanation?.token, t.token);
    const api = await activeApi();
    assert.strictEqual(api.recentTokens()[0].keyPrefixSource, 'request');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
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

  it('works in .log, plaintext, json, jsonc, yaml, markdown and go documents', async () => {
    const token = continueVectors[0].token;
    const samples: Array<[string, string, string]> = [
      ['log', 'page.log', `GET /api/v1/pods?continue=${token}`],
      ['plaintext', 'page.txt', `continue=${token}`],
      ['json', 'page.json', `{"metadata": {"continue": "${token}"}}`],
      ['jsonc', 'page.jsonc', `// page 1\n{"metadata": {"continue": "${token}"}}`],
      ['yaml', 'page.yaml', `metadata:\n  continue: ${token}`],
      ['markdown', 'notes.md', `The second page: \`?continue=${token}\``],
      ['go', 'pager_test.go', `package p\n\nconst next = "${token}"`],
    ];
    for (const [language, name, content] of samples) {
      const document = await scratchDocument(name, content);
      assert.strictEqual(document.languageId, language, `${name}: language`);
      const line = content.split('\n').findIndex((l) => l.includes(token));
      const { hovers } = await hoverTextAt(document, line, token);
      assert.strictEqual(hovers.length, 1, `${language}: expected a continue-token hover`);
    }
  });

  it('serves only the languages listwatch.hover.languages names', async () => {
    const token = continueVectors[0].token;
    const json = await scratchDocument('only.json', `{"metadata": {"continue": "${token}"}}`);
    const log = await scratchDocument('only.log', `GET /api/v1/pods?continue=${token}`);
    const config = vscode.workspace.getConfiguration('listwatch');
    await config.update('hover.languages', ['log'], vscode.ConfigurationTarget.Global);
    try {
      assert.strictEqual((await hoverTextAt(json, 0, token)).hovers.length, 0, 'json');
      assert.strictEqual((await hoverTextAt(log, 0, token)).hovers.length, 1, 'log');
    } finally {
      await config.update('hover.languages', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.strictEqual((await hoverTextAt(json, 0, token)).hovers.length, 1, 'json again');
  });

  it('reads a bounded window of a huge document, and only a window of a very long line', () => {
    const token = continueVectors[0].token;
    const padding = 'x'.repeat(4 * 1024 * 1024);
    const long = `${padding} GET /api/v1/pods?continue=${token}&limit=1 ${padding}`;
    const hovered = 123456;
    const lineCount = 1_000_000;
    const linesRead = new Set<number>();
    const document = {
      uri: vscode.Uri.parse('untitled:huge.log'),
      version: 1,
      lineCount,
      offsetAt: () => lineCount * 80 + long.length,
      lineAt(line: number) {
        linesRead.add(line);
        return { text: line === hovered ? long : `I0101 12:00:00.000000 1 x.go:1] line ${line}` };
      },
      getText() {
        throw new Error('the hover must not read the whole document');
      },
    } as unknown as vscode.TextDocument;
    const character = long.indexOf(token) + 10;
    const hover = new ContinueTokenHoverProvider(new DocumentTokens()).provideHover(
      document,
      new vscode.Position(hovered, character),
    );
    assert.ok(hover, 'no hover on a token in the middle of an 8 MiB line');
    const read = [...linesRead];
    assert.ok(read.length <= 2 * contextWindowLines + 1, `${read.length} lines read`);
    assert.ok(
      read.every((l) => Math.abs(l - hovered) <= contextWindowLines),
      'lines outside the window read',
    );
    assert.strictEqual(hover.range?.start.character, long.indexOf(token));
    assert.strictEqual(hover.range?.end.character, long.indexOf(token) + token.length);
    const text = unescapeMarkdown(hoverMarkdown([hover]));
    assert.ok(
      text.includes('| key prefix | /registry/pods/ (the request URL /api/v1/pods) |'),
      text,
    );
  });
});
