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
