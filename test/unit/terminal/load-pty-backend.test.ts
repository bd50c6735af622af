import type * as NodeModule from 'node:module'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { isReaError } from '../../../src/errors.js'
import { PTY_BACKEND_VARIABLE } from '../../../src/terminal/load-pty-backend.js'

const realPlatform = process.platform
function pretendPlatform(platform: NodeJS.Platform): void {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true })
}
// A successful load is cached per module instance; each test gets a fresh one.
const freshModule = () => import('../../../src/terminal/load-pty-backend.js')
beforeEach(() => vi.resetModules())
afterEach(() => {
  pretendPlatform(realPlatform)
  vi.unstubAllEnvs()
})

describe('loadPtyBackend', () => {
  test("loads REA's own spawner on Linux once the install built it", async () => {
    const { loadPtyBackend } = await freshModule()
    expect((await loadPtyBackend()).name).toBe('native')
  })

  test(`loads node-pty when ${PTY_BACKEND_VARIABLE}=node-pty`, async () => {
    vi.stubEnv(PTY_BACKEND_VARIABLE, 'node-pty')
    const { loadPtyBackend } = await freshModule()
    expect((await loadPtyBackend()).name).toBe('node-pty')
  })

  test(`refuses an unknown ${PTY_BACKEND_VARIABLE}, naming the variable and its values`, async () => {
    vi.stubEnv(PTY_BACKEND_VARIABLE, 'forkpty')
    const { loadPtyBackend } = await freshModule()
    const error: unknown = await loadPtyBackend().catch((caught: unknown) => caught)
    expect(isReaError(error) && error.code).toBe('CAPABILITY_UNAVAILABLE')
    expect(isReaError(error) && error.message).toBe(
      `The environment variable ${PTY_BACKEND_VARIABLE} is "forkpty"; it must be one of auto, native, node-pty ` +
        '(or unset, which is auto).',
    )
  })

  describe('when the install could not build the native spawner', () => {
    beforeEach(() => {
      // The package without native/linux/build: requiring the binary fails as Node fails for a missing file.
      vi.doMock('node:module', async (importOriginal) => {
        const actual = await importOriginal<typeof NodeModule>()
        const createRequire = (from: string | URL): NodeJS.Require => {
          const real = actual.createRequire(from)
          return Object.assign((id: string): unknown => {
            if (id.endsWith('rea_pty.node')) {
              throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' })
            }
            return real(id)
          }, real)
        }
        // load-pty-backend.ts takes only createRequire from node:module.
        return { createRequire, default: { createRequire } }
      })
    })
    afterEach(() => vi.doUnmock('node:module'))

    test('captures through node-pty', async () => {
      const { loadPtyBackend } = await freshModule()
      expect((await loadPtyBackend()).name).toBe('node-pty')
    })

    test(`refuses ${PTY_BACKEND_VARIABLE}=native, saying where it looked and how to rebuild`, async () => {
      vi.stubEnv(PTY_BACKEND_VARIABLE, 'native')
      const { loadPtyBackend, NATIVE_REBUILD_HINT } = await freshModule()
      const error: unknown = await loadPtyBackend().catch((caught: unknown) => caught)
      expect(isReaError(error) && error.code).toBe('CAPABILITY_UNAVAILABLE')
      expect(isReaError(error) && error.message).toMatch(
        /^REA_PTY_BACKEND=native, but REA's native PTY spawner could not be loaded: it was not built \(looked for .*native\/linux\/build\/Release\/rea_pty\.node/,
      )
      expect(isReaError(error) && error.hint).toBe(NATIVE_REBUILD_HINT)
    })
  })

  test(`refuses ${PTY_BACKEND_VARIABLE}=native off Linux instead of falling back`, async () => {
    vi.stubEnv(PTY_BACKEND_VARIABLE, 'native')
    const { loadPtyBackend } = await freshModule()
    pretendPlatform('darwin')
    const error: unknown = await loadPtyBackend().catch((caught: unknown) => caught)
    expect(isReaError(error) && error.message).toContain('exists only on Linux')
  })

  test('refuses native Windows capture with the WSL advice, not the reinstall advice', async () => {
    const { loadPtyBackend, PTY_REINSTALL_HINT, WINDOWS_CAPTURE_HINT } = await freshModule()
    pretendPlatform('win32')
    const error: unknown = await loadPtyBackend().catch((caught: unknown) => caught)
    expect(isReaError(error) && error.code).toBe('CAPABILITY_UNAVAILABLE')
    expect(isReaError(error) && error.message).toContain(
      'does not yet verify cleanup of descendant processes',
    )
    expect(isReaError(error) && error.hint).toBe(WINDOWS_CAPTURE_HINT)
    expect(WINDOWS_CAPTURE_HINT).toContain('WSL')
    expect(WINDOWS_CAPTURE_HINT).not.toBe(PTY_REINSTALL_HINT)
  })

  test('does not cache a failed load, so a later attempt can succeed', async () => {
    const { loadPtyBackend } = await freshModule()
    pretendPlatform('win32')
    await expect(loadPtyBackend()).rejects.toThrow()
    pretendPlatform(realPlatform)
    expect((await loadPtyBackend()).name).toBe('native')
  })
})
