// Test harness: Debian's headless Chromium driven through playwright-core (never a downloaded browser).
import { chromium, type Browser } from 'playwright-core';
import { chromiumPath } from './paths';

/** Flags that keep Chromium off the (closed) network and working as root in a container. */
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--disable-dev-shm-usage',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...chromiumArgs],
  });
}
