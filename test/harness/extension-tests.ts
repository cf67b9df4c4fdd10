// Test harness: runs an extensionTestsPath suite inside the real (Node) extension host of the VS Code
// server, with the workbench open in headless Chromium, and reports how the suite's run() settled.
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { testResultsDir } from './paths';
import { suiteStartMarker } from './suite-marker';
import { startVSCodeServer, type VSCodeServer } from './vscode-server';
import { workbenchUrl } from './workbench-url';

export interface ExtensionTestsOptions {
  /** Names the full log file written under test-results/. */
  name?: string;
  /** Empty when testing an extension already installed in extensionsDir. */
  extensionDevelopmentPath: readonly string[];
  extensionTestsPath: string;
  folder?: string;
  extensionsDir?: string;
  /** How long to wait for the suite to settle; a wait, not an assertion about speed. */
  timeoutMs?: number;
  write?: (text: string) => void;
}

export interface ExtensionTestsResult {
  /** 0 when the suite's run() resolved, 1 when it rejected, 124 when it never settled. */
  exitCode: number;
  passing: number;
  failing: number;
  pending: number;
}

// mocha's spec reporter ends with "  N passing (Xs)", "  N failing", "  N pending".
const mochaSummary = /^\s*(\d+) (passing|failing|pending)\b/;

export async function runExtensionTests(
  options: ExtensionTestsOptions,
): Promise<ExtensionTestsResult> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const started = Date.now();
  const log = (message: string) =>
    write(`[harness ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
  const counts = { passing: 0, failing: 0, pending: 0 };
  let server: VSCodeServer | undefined;
  let browser: Browser | undefined;
  const cleanup = async () => {
    const b = browser;
    browser = undefined;
    try {
      await b?.close();
    } catch {
      /* already closed */
    }
    const s = server;
    server = undefined;
    await s?.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    void cleanup().then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    server = await startVSCodeServer({ extensionsDir: options.extensionsDir, log });
    browser = await launchChromium();
    const page = await (
      await browser.newContext({ viewport: { width: 1400, height: 900 } })
    ).newPage();
    let settle: (code: number) => void = () => undefined;
    const settled = new Promise<number>((resolve) => {
      settle = resolve;
    });
    // With extensionTestsPath set, the workbench forwards every log line (the workbench's own, and
    // the extension host's console output with mocha's reporter) to window.codeAutomationLog. All of
    // it goes to a log file; the terminal gets the suite's own output: info lines from the suite's
    // start marker on (the rest is mostly noise about optional native modules).
    const logFile = path.join(testResultsDir(), `${options.name ?? 'extension-tests'}.log`);
    const fullLog = fs.createWriteStream(logFile);
    let suiteStarted = false;
    await page.exposeFunction('codeAutomationLog', (level: string, args: unknown) => {
      const text = util.format(...(Array.isArray(args) ? args : [args]));
      fullLog.write(`[${level}] ${text}\n`);
      if (text.includes(suiteStartMarker)) {
        suiteStarted = true;
        return;
      }
      if (!suiteStarted || level !== 'info') return;
      const summary = mochaSummary.exec(text);
      if (summary) counts[summary[2] as keyof typeof counts] = Number(summary[1]);
      write(`${text}\n`);
    });
    // ... and calls window.codeAutomationExit(code) when the suite's run() settles.
    await page.exposeFunction('codeAutomationExit', (code: number) => settle(code));
    page.on('pageerror', (error) => log(`page error: ${error.message}`));
    const url = workbenchUrl(server.base, {
      folder: options.folder,
      extensionDevelopmentPath: options.extensionDevelopmentPath,
      extensionTestsPath: options.extensionTestsPath,
    });
    log(`open ${url}`);
    await page.goto(url);
    const timeoutMs = options.timeoutMs ?? 300_000;
    let timer: NodeJS.Timeout | undefined;
    const exitCode = await Promise.race([
      settled,
      new Promise<number>((resolve) => {
        timer = setTimeout(() => resolve(124), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (exitCode === 124) {
      const shot = path.join(testResultsDir(), `extension-tests-timeout-${Date.now()}.png`);
      await page.screenshot({ path: shot }).catch(() => undefined);
      log(
        `the suite did not settle within ${timeoutMs} ms; screenshot ${shot}; server log:\n${fs.readFileSync(server.serverLog, 'utf8')}`,
      );
    } else {
      log(`extension host finished with exit code ${exitCode}; full log ${logFile}`);
    }
    if (!suiteStarted) log(`the suite never started; see ${logFile}`);
    fullLog.end();
    return { exitCode, ...counts };
  } catch (error) {
    log(`harness error: ${error instanceof Error ? error.stack : String(error)}`);
    return { exitCode: 1, ...counts };
  } finally {
    await cleanup();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}
