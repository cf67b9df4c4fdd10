// Test harness: the List/Watch Inspector's webview in the workbench (its frames, its debugging
// hook, its tabs and timeline), for the e2e tests that drive it in Chromium.
import * as assert from 'assert';
import type { Frame, FrameLocator, Page } from 'playwright-core';
import { uiTimeoutMs } from './workbench-driver';

/** The inspector's content, inside the workbench's webview iframe. */
export function inspectorPanel(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** The webview's inner frame, to evaluate in (it is where the panel's script runs). */
export async function inspectorFrame(page: Page): Promise<Frame> {
  const handle = await page
    .frameLocator('iframe.webview.ready')
    .locator('#active-frame')
    .elementHandle({ timeout: uiTimeoutMs });
  const frame = await handle?.contentFrame();
  assert.ok(frame, 'the inspector webview has no content frame');
  return frame;
}

/** Evaluates `read` on the webview's debugging hook (window.listwatchInspector, webview/main.ts). */
export async function inspectorHook<H, T>(page: Page, read: (h: H) => T): Promise<T> {
  const frame = await inspectorFrame(page);
  return frame.evaluate(`(${read.toString()})(window.listwatchInspector)`) as Promise<T>;
}

/** Clicks the panel's tab `name` and waits until it is the selected one. */
export async function showTab(page: Page, name: string): Promise<void> {
  await inspectorPanel(page).locator('vscode-panel-tab', { hasText: name }).click();
  await inspectorPanel(page)
    .locator('vscode-panel-tab[aria-selected="true"]', { hasText: name })
    .waitFor({ timeout: uiTimeoutMs });
}

/** The timeline's time text, once the frame after the last key or click is drawn. */
export async function timeText(page: Page): Promise<string> {
  await (
    await inspectorFrame(page)
  ).evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  return (await inspectorPanel(page).locator('.tl-time').textContent()) ?? '';
}

/**
 * What a table of the tab `viewId` (`#view-lists`, `#view-watchers`) does not show whole: the
 * table scrolling sideways (a column out of reach), and each header or cell in view, or anything
 * inside one, whose text is cut (wider or taller than its box). Hidden columns are not drawn and
 * not measured. Empty: every column reads whole.
 */
export async function cutTableCells(page: Page, viewId: string): Promise<string[]> {
  return inspectorPanel(page)
    .locator(`${viewId} .vt`)
    .evaluate((table) => {
      const cut: string[] = [];
      if (table.scrollWidth > table.clientWidth + 1)
        cut.push(`the table scrolls sideways: ${table.scrollWidth} px in ${table.clientWidth} px`);
      const titles = Array.from(table.querySelectorAll('.vt-headcell')).map(
        (c) => c.textContent ?? '',
      );
      const rows = [
        table.querySelector('.vt-head'),
        ...Array.from(table.querySelectorAll('.vt-row:not([hidden]):not(.loading)')),
      ];
      const bounds = table.getBoundingClientRect();
      for (const row of rows) {
        if (!row) continue;
        const r = row.getBoundingClientRect();
        // Rows scrolled out of the body's view are not read (their cells are still measured below
        // when they are in view).
        if (r.bottom <= bounds.top || r.top >= bounds.bottom) continue;
        Array.from(row.children).forEach((cell, i) => {
          if ((cell as HTMLElement).hidden) return;
          const box = cell.getBoundingClientRect();
          // A cell taller than its row spills over the next one: cut as much as a clipped one.
          if (box.top < r.top - 1 || box.bottom > r.bottom + 1)
            cut.push(
              `${titles[i]} "${(cell.textContent ?? '').slice(0, 80)}": ${Math.round(box.height)} px tall in a ${Math.round(r.height)} px row`,
            );
          if (box.left < bounds.left - 1 || box.right > bounds.right + 1)
            cut.push(
              `${titles[i]}: out of the table's view (${Math.round(box.left)}–${Math.round(box.right)} px)`,
            );
          for (const e of [cell, ...Array.from(cell.querySelectorAll('*'))]) {
            if (e.clientWidth === 0 && e.clientHeight === 0) continue;
            const wide = e.scrollWidth - e.clientWidth;
            const tall = e.scrollHeight - e.clientHeight;
            if (wide > 0 || tall > 0)
              cut.push(
                `${titles[i]} "${(cell.textContent ?? '').slice(0, 80)}": cut by ${wide} px × ${tall} px`,
              );
          }
        });
      }
      return [...new Set(cut)];
    });
}
