// Makes sure a browser exists for the end-to-end tests: Debian's Chromium via apt where we can
// (this project's machines cannot download Playwright's build), Playwright's install elsewhere.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { findChromium } from './browser-path.ts';

function run(cmd: string) {
  console.log(`ensure-browser: ${cmd}`);
  execSync(cmd, { stdio: 'inherit' });
}

let found = findChromium();
if (!found && existsSync(chromium.executablePath())) found = chromium.executablePath();
if (!found && process.platform === 'linux' && existsSync('/usr/bin/apt-get') && process.getuid?.() === 0) {
  try {
    run('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium');
    found = findChromium();
  } catch {
    console.log('ensure-browser: apt-get could not install chromium; trying Playwright.');
  }
}
if (!found) {
  run('npx playwright install chromium');
  found = chromium.executablePath();
}
console.log(`ensure-browser: using ${found}`);
