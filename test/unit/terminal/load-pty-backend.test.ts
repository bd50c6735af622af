import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { isReaError } from '../../../src/errors.js'

const realPlatform = process.platform
function pretendPlatform(platform: NodeJS.Platform): void {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true })
}
// A successful load is cached per module instance; each test gets a fresh one.
const freshModule = () => import('../../../src/terminal/load-pty-backend.js')
beforeEach(() => vi.resetModules())
afterEach(() => pretendPlatform(realPlatform))

describe('loadPtyBackend', () => {
  test('loads node-pty on Linux', async () => {
    const { loadPtyBackend } = await freshModule()
    expect((await loadPtyBackend()).name).toBe('node-pty')
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
    expect((await loadPtyBackend()).name).toBe('node-pty')
  })
})
