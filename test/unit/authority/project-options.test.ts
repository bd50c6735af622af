import { describe, expect, test } from 'vitest'
import {
  parseProjectOptions,
  projectOptions,
  updateProjectOptions,
} from '../../../src/authority/project-options.js'

describe('parseProjectOptions', () => {
  test('keeps timing and the test environment options', () => {
    expect(
      parseProjectOptions(
        { timing: 'strict', environment: { TZ: 'UTC', CI: null }, inheritEnvironment: ['NO_COLOR'] },
        'configureRea',
      ),
    ).toEqual({ timing: 'strict', environment: { TZ: 'UTC', CI: null }, inheritEnvironment: ['NO_COLOR'] })
    expect(parseProjectOptions({ inheritEnvironment: true }, 'configureRea')).toEqual({
      inheritEnvironment: true,
    })
  })

  test('names every problem at once', () => {
    expect(() =>
      parseProjectOptions(
        { environment: { TZ: 3, 'A=B': 'x', 'CI_*': 'x' }, inheritEnvironment: 'CI', colour: true },
        'configureRea',
      ),
    ).toThrow(
      /configureRea\.colour: is not an option \(valid: timing, recordUnfinished, acceptUnknowns, terminal, environment, inheritEnvironment\)[\s\S]*environment\.TZ: must be a string[\s\S]*environment\.A=B[\s\S]*environment\.CI_\*[\s\S]*inheritEnvironment: must be true/,
    )
  })
})

describe('updateProjectOptions', () => {
  test('replaces the options it names and keeps the others, on the global object of the realm', () => {
    const key = Symbol.for('rea.project-options')
    const holder = globalThis as Record<symbol, unknown>
    const before = holder[key]
    try {
      Reflect.deleteProperty(holder, key)
      expect(projectOptions()).toEqual({})
      updateProjectOptions({ timing: 'strict', environment: { TZ: 'UTC' } })
      updateProjectOptions({ timing: 'ignore' })
      expect(projectOptions()).toEqual({ timing: 'ignore', environment: { TZ: 'UTC' } })
      expect(holder[key]).toBe(projectOptions())
    } finally {
      if (before === undefined) {
        Reflect.deleteProperty(holder, key)
      } else {
        holder[key] = before
      }
    }
  })
})
