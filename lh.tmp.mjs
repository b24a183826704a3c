import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
const base = 'http://127.0.0.1:8611';
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
const page = await browser.newPage(); await page.goto(`${base}/favicon.svg`); await page.evaluate(() => localStorage.setItem('rpl.correspondentId', 'AB12CD')); await page.close(); await browser.disconnect();
const cpu = Number(process.env.CPU ?? 4);
for (const path of (process.env.PATHS ?? '/agents?receivingCountry=MX&deliveryMode=01').split(',')) {
  const r = await lighthouse(`${base}${path}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] }, { extends: 'lighthouse:default', settings: { throttling: { rttMs: 150, throughputKbps: 1638.4, requestLatencyMs: 562.5, downloadThroughputKbps: 1474.56, uploadThroughputKbps: 675, cpuSlowdownMultiplier: cpu } } });
  const l = r.lhr;
  const a = (id) => l.audits[id];
  console.log(path, 'perf', l.categories.performance.score, 'BI', l.environment.benchmarkIndex, ['first-contentful-paint','largest-contentful-paint','total-blocking-time','speed-index','cumulative-layout-shift'].map((id) => `${id}=${a(id).displayValue}(${a(id).score})`).join(' '));
  console.log(' lcp element', JSON.stringify(a('largest-contentful-paint-element').details?.items?.[0]?.items?.[0]?.node?.snippet ?? a('largest-contentful-paint-element').details).slice(0, 300));
  console.log(' lcp phases', JSON.stringify(a('largest-contentful-paint-element').details?.items?.[1]?.items ?? '').slice(0, 400));
  console.log(' chains', JSON.stringify(a('network-dependency-tree-insight')?.details ?? a('critical-request-chains')?.details?.longestChain ?? '').slice(0, 300));
}
chrome.kill();
