// Test harness: driving the real workbench in Chromium the way a person does (palette, quick open,
// go to line, hover, side bar), with locators that wait and fail with a timeout when the UI differs.
import type { Locator, Page } from 'playwright-core';

// Waits for the UI are bounded generously: a loaded CI machine can be slow, and only the outcome counts.
export const uiTimeoutMs = 30_000;

export function quickInput(page: Page): Locator {
  return page.locator('.quick-input-widget input');
}

/**
 * Enter on the quick input's current step once it can take it: the step's title shows and, in a
 * quick pick, a row is focused (the one showing `row` when given). The key goes to the input
 * itself, focused first, since a key pressed while focus moves between two steps is lost; while
 * the step's title still shows afterwards, Enter is pressed again, as a person would.
 */
export async function acceptStep(page: Page, title: string, row?: string): Promise<void> {
  const heading = page.locator('.quick-input-widget .quick-input-title', { hasText: title });
  await heading.waitFor({ timeout: uiTimeoutMs });
  const rows = page.locator('.quick-input-list .monaco-list-row');
  if (row !== undefined || (await rows.first().isVisible())) {
    await page
      .locator('.quick-input-list .monaco-list-row.focused', row ? { hasText: row } : {})
      .first()
      .waitFor({ timeout: uiTimeoutMs });
  }
  const input = quickInput(page);
  for (let attempt = 1; ; attempt++) {
    await input.press('Enter', { timeout: uiTimeoutMs });
    try {
      await heading.waitFor({ state: 'hidden', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 3) {
        const message = await page.locator('.quick-input-message').textContent();
        throw new Error(`step "${title}" still asks after ${attempt} Enters: ${message ?? ''}`, {
          cause: error,
        });
      }
    }
  }
}

/**
 * F1, type the command's title, wait for exactly that row, Enter. The palette lists what is
 * registered when it opens, so while the extension host is still starting it is reopened, as a
 * person would.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = quickInput(page);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  const deadline = Date.now() + uiTimeoutMs;
  for (;;) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: uiTimeoutMs });
    await input.fill(`>${title}`);
    try {
      await row.waitFor({ timeout: 3000 });
      break;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden', timeout: uiTimeoutMs });
    }
  }
  await input.press('Enter');
}

/** Ctrl+P, type the file name, Enter; resolves once the editor shows `expectText`. */
export async function openFile(page: Page, name: string, expectText: string): Promise<Locator> {
  await page.keyboard.press('Control+P');
  const input = quickInput(page);
  await input.waitFor({ state: 'visible', timeout: uiTimeoutMs });
  await input.fill(name);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: name })
    .first()
    .waitFor({ timeout: uiTimeoutMs });
  await input.press('Enter');
  await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: uiTimeoutMs });
  const editor = page.locator('.editor-group-container.active .monaco-editor').first();
  await editor
    .locator('.view-line', { hasText: expectText })
    .first()
    .waitFor({ timeout: uiTimeoutMs });
  return editor;
}

/** Ctrl+G to a 1-based line, which the editor reveals in the middle of the viewport. */
export async function goToLine(page: Page, line: number): Promise<void> {
  await page.keyboard.press('Control+G');
  const input = quickInput(page);
  await input.waitFor({ state: 'visible', timeout: uiTimeoutMs });
  await input.fill(`:${line}`);
  await input.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: uiTimeoutMs });
}

/**
 * The screen point in the middle of `text` as the active editor renders it (a DOM Range over the
 * text node holding it), so the mouse can hover exactly there; undefined while not rendered.
 * `which`: the first rendered occurrence, or the lowest on screen (a line that occurs above too).
 */
export async function pointOfText(
  page: Page,
  text: string,
  which: 'first' | 'lowest' = 'first',
): Promise<{ x: number; y: number } | undefined> {
  return page.evaluate(
    ([needle, lowestWanted]) => {
      const root = document.querySelector(
        '.editor-group-container.active .monaco-editor .view-lines',
      );
      if (!root) return undefined;
      let found: { x: number; y: number } | undefined;
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf(needle) ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + needle.length);
        const box = range.getBoundingClientRect();
        if (box.width === 0 || (found && box.top + box.height / 2 <= found.y)) continue;
        found = { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        if (!lowestWanted) break;
      }
      return found;
    },
    [text, which === 'lowest'] as const,
  );
}

/** Opens a view container from the activity bar by clicking its icon. */
export async function openActivity(page: Page, title: string): Promise<void> {
  await page
    .locator(`.activitybar .action-item .action-label[aria-label^="${title}"]`)
    .first()
    .click({ timeout: uiTimeoutMs });
}

/**
 * Runs a palette command from wherever the focus is (F1 does not reach the workbench while a
 * webview or a just-hidden view has it): the title bar's command center opens the same input;
 * without a command center, F1 (runCommand).
 */
export async function palette(page: Page, title: string): Promise<void> {
  const center = page.locator('.command-center .command-center-center').first();
  if (!(await center.isVisible())) return runCommand(page, title);
  await center.click();
  const input = quickInput(page);
  await input.waitFor({ state: 'visible', timeout: uiTimeoutMs });
  await input.fill(`>${title}`);
  // The row whose label is exactly the title (the first row may be a longer command).
  const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  await page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: exact }) })
    .first()
    .click({ timeout: uiTimeoutMs });
}

/**
 * The List/Watch commands the palette offers for `filter`, without their category, once the row
 * `shown` is listed (so the list has settled); the palette is closed again.
 */
export async function paletteRows(page: Page, filter: string, shown: string): Promise<string[]> {
  // As palette() opens it: the command center when there is one, else F1.
  const center = page.locator('.command-center .command-center-center').first();
  if (await center.isVisible()) await center.click();
  else await page.keyboard.press('F1');
  const input = quickInput(page);
  await input.waitFor({ state: 'visible', timeout: uiTimeoutMs });
  await input.fill(`>${filter}`);
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows
    .filter({ has: page.locator('.label-name', { hasText: `List/Watch: ${shown}` }) })
    .first()
    .waitFor({ timeout: uiTimeoutMs });
  const labels = await rows.locator('.label-name').allInnerTexts();
  await input.press('Escape');
  await input.waitFor({ state: 'hidden', timeout: uiTimeoutMs });
  return labels.filter((l) => l.startsWith('List/Watch: ')).map((l) => l.slice(12));
}

/** Picks a quick pick row by typing a filter and pressing Enter on the row that shows `row`. */
export async function pickQuickPick(page: Page, filter: string, row: string): Promise<void> {
  const input = quickInput(page);
  await input.waitFor({ state: 'visible', timeout: uiTimeoutMs });
  await input.fill(filter);
  await page
    .locator('.quick-input-list .monaco-list-row.focused', { hasText: row })
    .first()
    .waitFor({ timeout: uiTimeoutMs });
  await input.press('Enter');
}

/**
 * Runs `command` from the palette and answers its file dialog (the workbench's own, a quick input)
 * with `file`. The path is typed once the dialog has listed its first folder, as that listing sets
 * the input's value and would replace a path typed before it; Enter goes to the input, and while
 * the dialog still shows it is pressed again, the path typed again if the dialog changed it.
 */
export async function openFromFileDialog(page: Page, command: string, file: string): Promise<void> {
  await palette(page, command);
  await chooseInFileDialog(page, file);
}

/**
 * Types `file` into the file dialog that shows (VS Code's simple dialog) and opens it; done when
 * the dialog hides, or when `next` shows (a prompt that follows it in the same quick input).
 */
export async function chooseInFileDialog(page: Page, file: string, next?: Locator): Promise<void> {
  const input = quickInput(page);
  await input.waitFor({ state: 'visible', timeout: uiTimeoutMs });
  await page
    .locator('.quick-input-list .monaco-list-row')
    .first()
    .waitFor({ timeout: uiTimeoutMs });
  const name = file.split(/[\\/]/).at(-1) ?? file;
  for (let attempt = 1; ; attempt++) {
    if ((await input.inputValue()) !== file) await input.fill(file);
    // The dialog reads the typed path's folder and focuses the file's row.
    await page
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: name })
      .first()
      .waitFor({ timeout: uiTimeoutMs })
      .catch(() => undefined);
    await input.press('Enter');
    try {
      await (next ?? input).waitFor({ state: next ? 'visible' : 'hidden', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 3)
        throw new Error(`the file dialog still shows after ${attempt} Enters on ${file}`, {
          cause: error,
        });
    }
  }
}

/** Shows the List/Watch side bar (clicking its icon while it shows would hide it); returns the Runs pane. */
export async function listWatchSideBar(page: Page): Promise<Locator> {
  const runs = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Runs' }) });
  if (!(await runs.isVisible())) await openActivity(page, 'List/Watch');
  await runs.waitFor({ timeout: uiTimeoutMs });
  return runs;
}

/**
 * Runs a scenario from the palette, with its defaults or with some parameters typed in. Each
 * parameter is asked in turn ("… watchers (1/5)"); Enter keeps the default.
 */
export async function runScenarioFromPalette(
  page: Page,
  name: string,
  set: Record<string, string> = {},
): Promise<void> {
  await palette(page, 'List/Watch: Run Scenario…');
  await pickQuickPick(page, name, name);
  if (Object.keys(set).length === 0) {
    await pickQuickPick(page, 'defaults', 'Run with defaults');
    return;
  }
  await pickQuickPick(page, 'parameters', 'Set parameters…');
  for (let n = 1; ; n++) {
    const step = `(${n}/`;
    const title = page.locator('.quick-input-title', { hasText: step });
    await title.waitFor({ timeout: uiTimeoutMs });
    const text = (await title.textContent()) ?? '';
    const total = Number(/\((\d+)\/(\d+)\)/.exec(text)?.[2] ?? n);
    const param = Object.keys(set).find((k) => text.includes(`: ${k} (`));
    // A parameter with choices is a quick pick: the typed value filters it to its row.
    if (param) await quickInput(page).fill(set[param]);
    const choices = await page.locator('.quick-input-list .monaco-list-row').first().isVisible();
    await acceptStep(page, step, param && choices ? set[param] : undefined);
    if (n >= total) return;
  }
}
