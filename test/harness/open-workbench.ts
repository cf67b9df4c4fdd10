// Test harness: the VS Code server, Chromium and the workbench opened on a folder with the
// extension under development, as every browser test starts (the reference harness's recipe).
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { startVSCodeServer, type VSCodeServer } from './vscode-server';
import { workbenchUrl } from './workbench-url';

/** The default dark theme and no preview editors: the screenshots are read in them. */
export const screenshotSettings: Readonly<Record<string, unknown>> = {
  'workbench.colorTheme': 'Default Dark Modern',
  'workbench.editor.enablePreview': false,
};

export interface OpenWorkbenchOptions {
  folder: string;
  extensionDevelopmentPath: string;
  /** User settings on top of the harness's own. */
  settings?: Readonly<Record<string, unknown>>;
  /** Lets the page read and write the clipboard (Copy commands). */
  clipboard?: boolean;
  /** An explorer row to wait for first: the folder is listed once the server connection is up. */
  explorerRow?: string;
}

export interface OpenWorkbench {
  server: VSCodeServer;
  browser: Browser;
  page: Page;
}

/**
 * Starts the server and the browser and opens the workbench at 1400×900; resolves once the
 * List/Watch view container is in the activity bar (the extension's contributions are loaded).
 * What was started before a failure is stopped.
 */
export async function openWorkbench(o: OpenWorkbenchOptions): Promise<OpenWorkbench> {
  const server = await startVSCodeServer({ settings: o.settings ?? {} });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    if (o.clipboard)
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: server.base,
      });
    const page = await context.newPage();
    await page.goto(
      workbenchUrl(server.base, {
        folder: o.folder,
        extensionDevelopmentPath: o.extensionDevelopmentPath,
      }),
    );
    if (o.explorerRow)
      await page
        .locator('.explorer-folders-view .monaco-list-row', { hasText: o.explorerRow })
        .waitFor({ timeout: 90_000 });
    await page
      .locator('.activitybar .action-item .action-label[aria-label^="List/Watch"]')
      .waitFor({ timeout: 90_000 });
    return { server, browser, page };
  } catch (e) {
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw e;
  }
}
