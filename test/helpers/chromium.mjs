// Drives the distribution's headless Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe:
// requests on fd 3, replies on fd 4, NUL-separated JSON), so tests and benchmarks need no browser download and
// no WebSocket client. Used by test/integration/viewer-browser.test.ts and bench/viewer.mjs.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { clearTimeout, setTimeout } from 'node:timers'
import { setTimeout as sleep } from 'node:timers/promises'

export const CHROMIUM = process.env.REA_CHROMIUM ?? '/usr/bin/chromium'
const CALL_TIMEOUT_MS = 60_000

/** Why no browser test can run here, or null when Chromium starts. */
export function chromiumUnavailable() {
  if (!existsSync(CHROMIUM)) {
    return `${CHROMIUM} is not installed (.ci/run installs the chromium package with apt-get)`
  }
  const version = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 30_000 })
  return version.status === 0 ? null : `${CHROMIUM} --version failed: ${version.stderr || version.error}`
}

const BROWSER_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-sync',
  '--disable-breakpad',
  '--disable-crash-reporter',
  '--no-first-run',
  '--no-default-browser-check',
  '--mute-audio',
  '--hide-scrollbars',
  // The GPU thread (software compositing here) in the browser process: one process fewer per browser.
  '--in-process-gpu',
]

/**
 * Starts a headless Chromium driven over the DevTools protocol on a pipe, in its own process group (closing ends
 * the browser's helpers too). `niceness` is its scheduling priority as `nice -n` takes it: `nice` execs the
 * browser (same PID, same group), and every process the browser starts inherits it.
 */
function launchBrowser({ width, height, niceness = 0 }) {
  const profile = mkdtempSync(path.join(tmpdir(), 'rea-chromium-'))
  const browser = spawn(
    'nice',
    [
      '-n',
      String(niceness),
      CHROMIUM,
      ...BROWSER_FLAGS,
      `--user-data-dir=${profile}`,
      `--window-size=${width},${height}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  )
  let stderr = ''
  browser.stderr.on('data', (text) => (stderr = (stderr + text).slice(-4000)))
  const exited = new Promise((resolve) => browser.on('exit', resolve))
  // A request written after the browser died fails with EPIPE; the pending call's rejection reports it.
  browser.stdio[3].on('error', () => {})
  const pending = new Map()
  const listeners = new Set()
  let nextId = 1
  let buffer = ''
  browser.stdio[4].on('data', (bytes) => {
    buffer += bytes.toString('utf8')
    let end
    while ((end = buffer.indexOf('\0')) !== -1) {
      const message = JSON.parse(buffer.slice(0, end))
      buffer = buffer.slice(end + 1)
      const waiting = pending.get(message.id)
      if (waiting !== undefined) {
        pending.delete(message.id)
        if (message.error) {
          waiting.reject(new Error(`${waiting.method}: ${message.error.message}`))
        } else {
          waiting.resolve(message.result)
        }
      } else if (message.method !== undefined) {
        for (const listener of listeners) listener(message)
      }
    }
  })
  void exited.then(() => {
    for (const waiting of pending.values()) waiting.reject(new Error(`Chromium exited; stderr: ${stderr}`))
    pending.clear()
  })
  const call = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = nextId++
      const timer = setTimeout(() => {
        pending.delete(id)
        reject(new Error(`${method} timed out after ${CALL_TIMEOUT_MS} ms; stderr: ${stderr}`))
      }, CALL_TIMEOUT_MS)
      const settle = (fn) => (value) => {
        clearTimeout(timer)
        fn(value)
      }
      pending.set(id, { method, resolve: settle(resolve), reject: settle(reject) })
      browser.stdio[3].write(
        `${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`,
      )
    })

  const close = async () => {
    call('Browser.close').catch(() => {
      // The browser may already be gone; the group kill below covers it either way.
    })
    await Promise.race([exited, sleep(5000)])
    try {
      process.kill(-browser.pid, 'SIGKILL')
    } catch {
      // The group has ended: nothing left to kill.
    }
    rmSync(profile, { recursive: true, force: true })
  }
  return { call, listeners, close }
}

/**
 * A new tab of `browser`, attached in flat mode: its session id, `loaded` (resolved at the tab's next load event,
 * once the Page domain is enabled) and the call to close it.
 */
async function openTab({ call, listeners }, { width, height }) {
  const { targetId } = await call('Target.createTarget', { url: 'about:blank' })
  const { sessionId } = await call('Target.attachToTarget', { targetId, flatten: true })
  await call(
    'Emulation.setDeviceMetricsOverride',
    { width, height, deviceScaleFactor: 1, mobile: false },
    sessionId,
  )
  let resolveLoaded
  const loaded = new Promise((resolve) => (resolveLoaded = resolve))
  const onLoad = (message) => {
    if (message.sessionId === sessionId && message.method === 'Page.loadEventFired') resolveLoaded()
  }
  listeners.add(onLoad)
  return {
    sessionId,
    loaded,
    close: () => {
      listeners.delete(onLoad)
      return call('Target.closeTarget', { targetId })
    },
  }
}

/**
 * A browser for screenshots of pages as `chromium --headless --screenshot` takes them: the shot is taken as soon
 * as the page's load event fires ("a screenshot of the loaded page"), without waiting for any signal of the
 * page's own. Each shot loads the page in a new tab of the one browser, so many shots cost one browser start.
 * The divergence page's missing-outline race (fixed in 741f854) showed this way in 4 to 6 of 20 shots with every
 * core busy, as it did in 5 of 20 separate `--screenshot` runs.
 */
export function openScreenshotBrowser({ width = 1400, height = 1000, niceness = 0 } = {}) {
  const browser = launchBrowser({ width, height, niceness })
  return {
    async screenshotOnLoad(url, file) {
      const tab = await openTab(browser, { width, height })
      try {
        await browser.call('Page.enable', {}, tab.sessionId)
        await browser.call('Page.navigate', { url }, tab.sessionId)
        await tab.loaded
        const { data } = await browser.call('Page.captureScreenshot', { format: 'png' }, tab.sessionId)
        writeFileSync(file, Buffer.from(data, 'base64'))
      } finally {
        await tab.close()
      }
    },
    close: browser.close,
  }
}

/**
 * Opens `url` in a fresh headless Chromium and records what the page does: console errors, uncaught exceptions,
 * log errors (a Content-Security-Policy violation is one) and every network request.
 */
export async function openPage(url, { width = 1400, height = 1000 } = {}) {
  const browser = launchBrowser({ width, height })
  const { call, close } = browser
  try {
    const { sessionId, loaded } = await openTab(browser, { width, height })
    const consoleErrors = []
    const requests = []
    browser.listeners.add((message) => {
      if (message.sessionId !== sessionId) return
      const p = message.params
      if (message.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert')) {
        consoleErrors.push(p.args.map((arg) => arg.value ?? arg.description).join(' '))
      } else if (message.method === 'Runtime.exceptionThrown') {
        consoleErrors.push(p.exceptionDetails.exception?.description ?? p.exceptionDetails.text)
      } else if (message.method === 'Log.entryAdded' && p.entry.level === 'error') {
        consoleErrors.push(p.entry.text)
      } else if (message.method === 'Network.requestWillBeSent') {
        requests.push(p.request.url)
      }
    })
    for (const domain of ['Runtime', 'Log', 'Network', 'Page']) {
      await call(`${domain}.enable`, {}, sessionId)
    }
    const started = performance.now()
    await call('Page.navigate', { url }, sessionId)
    await loaded
    const loadMs = performance.now() - started

    const evaluate = async (expression) => {
      const reply = await call(
        'Runtime.evaluate',
        { expression, returnByValue: true, awaitPromise: true },
        sessionId,
      )
      if (reply.exceptionDetails) {
        throw new Error(
          `${expression}: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`,
        )
      }
      return reply.result.value
    }
    return {
      consoleErrors,
      requests,
      loadMs,
      evaluate,
      /** Polls `expression` until it is truthy; resolves with the milliseconds since navigation started. */
      async waitFor(expression, timeoutMs = 30_000) {
        const deadline = performance.now() + timeoutMs
        while (!(await evaluate(expression))) {
          if (performance.now() > deadline) {
            throw new Error(
              `timed out waiting for ${expression}; console errors: ${consoleErrors.join(' | ')}`,
            )
          }
          await sleep(25)
        }
        return performance.now() - started
      },
      async click(selector) {
        await evaluate(`document.querySelector(${JSON.stringify(selector)}).click()`)
      },
      async screenshot(file) {
        const { data } = await call('Page.captureScreenshot', { format: 'png' }, sessionId)
        writeFileSync(file, Buffer.from(data, 'base64'))
      },
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
