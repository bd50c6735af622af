import { execFileSync } from 'node:child_process'
import { describe, expect, test } from 'vitest'
import { xterm256ColorDescription, xtermDescription } from '../../../src/screen/terminfo-xterm.js'
import { OMITTED_CAPABILITIES, readTerminfo } from '../../helpers/terminfo-source.mjs'

const infocmp = (() => {
  try {
    return execFileSync('infocmp', ['-V'], { encoding: 'utf8' }).trim()
  } catch {
    return undefined
  }
})()
if (infocmp === undefined) {
  console.log(
    'terminfo-xterm: infocmp is not installed here; REA’s tables are not held to a host description',
  )
}

describe.skipIf(infocmp === undefined)(`REA's terminal descriptions against ${infocmp ?? 'infocmp'}`, () => {
  test.for([
    ['xterm-256color', xterm256ColorDescription()],
    ['xterm', xtermDescription()],
  ] as const)('%s holds the string and numeric capabilities of the host’s description', ([type, table]) => {
    const host = Object.entries(readTerminfo(type)).filter(([name]) => !OMITTED_CAPABILITIES.includes(name))
    expect(table).toEqual(Object.fromEntries(host))
  })
})
