import { afterEach, describe, expect, test } from 'vitest'
import { configureRea } from '../../../matchers/configure-rea.js'
import { projectOptions } from '../../../src/authority/project-options.js'

const KEY = Symbol.for('rea.project-options')
const holder = globalThis as Record<symbol, unknown>
const before = holder[KEY]

afterEach(() => {
  if (before === undefined) {
    Reflect.deleteProperty(holder, KEY)
  } else {
    holder[KEY] = before
  }
})

describe('configureRea', () => {
  test('sets the project options, keeping those it does not name', () => {
    configureRea({ timing: 'strict' })
    configureRea({ terminal: 'screens' })
    expect(projectOptions()).toMatchObject({ timing: 'strict', terminal: 'screens' })
  })

  test('throws when the options are not valid', () => {
    expect(() => configureRea({ timing: 'slow' as 'strict' })).toThrow(
      /configureRea: the options are not valid/,
    )
  })
})
