import { spawn } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { watchProcessExit } from '../../../src/terminal/exit-watch.js'
import { killAndWait, whenSpawned } from '../../helpers/child-processes.js'
import { waitFor } from '../../helpers/wait-for.js'

describe('watchProcessExit', () => {
  test.for([
    ['polls on its own', false],
    ['still sees the exit when the spawner’s report never comes', true],
  ] as const)('%s', async ([, hinted]) => {
    const child = await whenSpawned(spawn('sleep', ['600'], { stdio: 'ignore' }))
    let gone = 0
    const watch = watchProcessExit(child.pid as number, () => gone++, hinted)
    try {
      watch.checkNow()
      expect(gone).toBe(0)
      await killAndWait(child)
      await waitFor(() => gone > 0, { description: 'the exit seen without a hint' })
      watch.checkNow()
      expect(gone).toBe(1)
    } finally {
      watch.dispose()
      await killAndWait(child)
    }
  })

  test('sees the exit at once when told to look', async () => {
    const child = await whenSpawned(spawn('sleep', ['600'], { stdio: 'ignore' }))
    let gone = 0
    const watch = watchProcessExit(child.pid as number, () => gone++, true)
    try {
      await killAndWait(child)
      watch.checkNow()
      expect(gone).toBe(1)
    } finally {
      watch.dispose()
    }
  })
})
