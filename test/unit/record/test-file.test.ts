import { describe, expect, test } from 'vitest'
import { renderTestFile } from '../../../src/record/test-file.js'
import type { RecordedEvent } from '../../../src/record/build-events.js'

const events: RecordedEvent[] = [
  { event: { type: 'input', after: { screen: 'Name? ' }, data: 'Ada\r' } },
  {
    event: { type: 'input', after: { screen: 'Password: ' }, sensitive: true, data: '<secret-1>\r' },
    secret: 'hunter22\r',
    placeholder: '<secret-1>',
  },
]
const scenario = { executable: './signup.py', events: events.map((recorded) => recorded.event) }

describe('renderTestFile', () => {
  test('writes a Vitest test with the fixture, the scenario and toMatchCapture, reading the secret from the environment', () => {
    const text = renderTestFile('vitest', 'signup.test.mjs', scenario, events, 'signup')
    expect(text).toContain("import { expect, test } from 'rea-capture/vitest'")
    expect(text).toContain('async ({ captureProcess }) => {')
    expect(text).toContain('expect(capture).toMatchCapture()')
    expect(text).toContain(`"data": secret('REA_SECRET_1') + "\\r"`)
    expect(text).toContain('test("signup as recorded"')
    expect(text).not.toContain('hunter22')
    expect(text).not.toContain('<secret-1>')
  })

  test('writes a Jest test in TypeScript with the scenario typed', () => {
    const text = renderTestFile('jest', 'signup.test.ts', scenario, events, 'signup')
    expect(text).toContain("import { expect, test } from '@jest/globals'")
    expect(text).toContain("import { captureProcess } from 'rea-capture/jest'")
    expect(text).toContain('const scenario: ProcessScenarioInput = {')
    expect(text).toContain('function secret(name: string)')
  })
})
