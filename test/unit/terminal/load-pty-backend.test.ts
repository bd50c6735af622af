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
