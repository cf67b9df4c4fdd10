// src/extension/ids.ts against package.json: every id the extension names is declared there (a
// command, a view, a setting, a context key a `when` clause reads, the walkthrough, the webview's
// activation event), every command, view and setting package.json declares is named in ids.ts, and
// no 'listwatch.…' literal is written anywhere else in src/extension or twice in ids.ts.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as ids from '../../../src/extension/ids';

const root = path.resolve(__dirname, '../../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributes = manifest.contributes;
const configuration = Array.isArray(contributes.configuration)
  ? contributes.configuration
  : [contributes.configuration];

/** What package.json declares, by kind. */
const declared = {
  command: new Set<string>(contributes.commands.map((c: { command: string }) => c.command)),
  view: new Set<string>(
    Object.values(contributes.views as Record<string, Array<{ id: string }>>).flatMap((v) =>
      v.map((view) => view.id),
    ),
  ),
  setting: new Set<string>(
    configuration.flatMap((c: { properties: Record<string, unknown> }) =>
      Object.keys(c.properties),
    ),
  ),
  walkthrough: new Set<string>(contributes.walkthroughs.map((w: { id: string }) => w.id)),
};
const whenClauses = JSON.stringify(contributes.menus) + JSON.stringify(contributes.viewsWelcome);

/** Every id ids.ts exports, with its export name (an object's entries as `name.key`). */
const named: Array<{ name: string; id: string }> = Object.entries(ids).flatMap(([name, value]) =>
  typeof value === 'string'
    ? [{ name, id: value }]
    : Object.entries(value as Record<string, string>).map(([key, id]) => ({
        name: `${name}.${key}`,
        id,
      })),
);

/** Where package.json must declare an id, by the export's name. */
function kindOf(name: string): string {
  if (/CommandId$|^runCommandIds\./.test(name)) return 'command';
  if (/ViewId$/.test(name)) return 'view';
  if (/SettingId$|^runGuardSettingIds\./.test(name)) return 'setting';
  if (/ContextKey$/.test(name)) return 'context key';
  if (/StateKey$/.test(name)) return 'state key';
  if (name === 'walkthroughId') return 'walkthrough';
  if (name === 'inspectorViewType') return 'webview';
  if (name === 'serverStatusBarItemId') return 'status bar item';
  throw new Error(`ids.ts: ${name} has no known kind; name it …CommandId, …ViewId, …SettingId…`);
}

describe('src/extension/ids.ts and package.json', () => {
  for (const { name, id } of named) {
    const kind = kindOf(name);
    it(`${name} (${kind} ${id}) is declared where package.json declares its kind`, () => {
      switch (kind) {
        case 'command':
        case 'view':
        case 'setting':
        case 'walkthrough':
          assert.ok(declared[kind].has(id), `${id} is not a contributed ${kind}`);
          break;
        case 'context key':
          assert.ok(whenClauses.includes(id), `no when clause in package.json reads ${id}`);
          break;
        case 'webview':
          assert.ok(manifest.activationEvents.includes(`onWebviewPanel:${id}`), id);
          break;
        default:
          // The workspace state's keys and the status bar item's id are the extension's own.
          assert.match(id, /^listwatch\.[A-Za-z.]+$/);
      }
    });
  }

  const namedIds = new Set(named.map((n) => n.id));
  for (const kind of ['command', 'view', 'setting'] as const)
    it(`every ${kind} package.json declares is named in ids.ts`, () => {
      const missing = [...declared[kind]].filter((id) => !namedIds.has(id));
      assert.deepStrictEqual(missing, [], `${kind}s declared but not in ids.ts`);
    });

  it('writes each id once in ids.ts, and no id literal anywhere else in src/extension', () => {
    const dir = path.join(root, 'src/extension');
    const literal = /['"`]listwatch\.[A-Za-z]/g;
    const idsText = fs.readFileSync(path.join(dir, 'ids.ts'), 'utf8');
    const written = [...idsText.matchAll(/'(listwatch\.[A-Za-z.]+)'/g)].map((m) => m[1]);
    assert.deepStrictEqual(
      written.filter((id, i) => written.indexOf(id) !== i),
      [],
      'written twice in ids.ts',
    );
    const elsewhere = (fs.readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && f !== 'ids.ts')
      .flatMap((f) =>
        fs
          .readFileSync(path.join(dir, f), 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            // Comments may name a setting as the user sees it.
            !/^\s*(\/\/|\*|\/\*)/.test(line) && line.match(literal)
              ? [`${f}:${i + 1}: ${line.trim()}`]
              : [],
          ),
      );
    assert.deepStrictEqual(elsewhere, [], 'id literals outside ids.ts');
  });
});
