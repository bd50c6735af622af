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
]

/**
 * Takes a screenshot the way people and CI scripts do, with `chromium --headless --screenshot`: the browser
 * captures the page soon after it loaded, without waiting for any signal of the page's own.
 */
export async function screenshotPage(url, file, { width = 1400, height = 1000, niceness = 0 } = {}) {
  const profile = mkdtempSync(path.join(tmpdir(), 'rea-chromium-'))
  // `nice` execs the browser (same PID, same process group), and every process it starts inherits the niceness.
  const browser = spawn(
    'nice',
    [
      '-n',
      String(niceness),
      CHROMIUM,
      ...BROWSER_FLAGS,
      `--user-data-dir=${profile}`,
      `--window-size=${width},${height}`,
      `--screenshot=${file}`,
      url,
    ],
    { detached: true, stdio: 'ignore' },
  )
  const exited = new Promise((resolve) => browser.on('exit', resolve))
  const guard = setTimeout(() => process.kill(-browser.pid, 'SIGKILL'), CALL_TIMEOUT_MS)
  await exited
  clearTimeout(guard)
  try {
    // Helpers of the browser's group that outlived it.
    process.kill(-browser.pid, 'SIGKILL')
  } catch {
    // The group has ended: nothing left to kill.
  }
  rmSync(profile, { recursive: true, force: true })
}

/**
 * Opens `url` in a fresh headless Chromium and records what the page does: console errors, uncaught exceptions,
 * log errors (a Content-Security-Policy violation is one) and every network request.
 */
export async function openPage(url, { width = 1400, height = 1000 } = {}) {
  const profile = mkdtempSync(path.join(tmpdir(), 'rea-chromium-'))
  const browser = spawn(
    CHROMIUM,
    [...BROWSER_FLAGS, `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'],
    // Its own process group, so closing ends the browser's helpers too.
    { detached: true, stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  )
  let stderr = ''
  browser.stderr.on('data', (text) => (stderr = (stderr + text).slice(-4000)))
  const exited = new Promise((resolve) => browser.on('exit', resolve))
  // A request written after the browser died fails with EPIPE; the pending call's rejection reports it.
  browser.stdio[3].on('error', () => {})
  const pending = new Map()
  const listeners = []
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

  try {
    const { targetId } = await call('Target.createTarget', { url: 'about:blank' })
    const { sessionId } = await call('Target.attachToTarget', { targetId, flatten: true })
    const consoleErrors = []
    const requests = []
    let loaded
    const load = new Promise((resolve) => (loaded = resolve))
    listeners.push((message) => {
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
      } else if (message.method === 'Page.loadEventFired') {
        loaded()
      }
    })
    for (const domain of ['Runtime', 'Log', 'Network', 'Page']) {
      await call(`${domain}.enable`, {}, sessionId)
    }
    await call(
      'Emulation.setDeviceMetricsOverride',
      { width, height, deviceScaleFactor: 1, mobile: false },
      sessionId,
    )
    const started = performance.now()
    await call('Page.navigate', { url }, sessionId)
    await load
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
