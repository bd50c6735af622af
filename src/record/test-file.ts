import type { ProcessScenarioInput } from '../scenario/schema.js'
import type { RecordedEvent } from './build-events.js'

export const TEST_RUNNERS = ['vitest', 'jest'] as const
export type TestRunner = (typeof TEST_RUNNERS)[number]

/** The environment variable a test reads the Nth secret from. */
export function secretVariable(index: number): string {
  return `REA_SECRET_${index}`
}

/**
 * A test file for `runner` that captures the recorded scenario and checks it with `toMatchCapture()`, written
 * the way docs/vitest.md and docs/jest.md show (Vitest's `captureProcess` fixture, `rea-capture/jest`'s function).
 * Secrets are read from environment variables, so the file never holds them.
 */
export function renderTestFile(
  runner: TestRunner,
  testPath: string,
  scenario: ProcessScenarioInput,
  events: readonly RecordedEvent[],
  name: string,
): string {
  const typescript = /\.[cm]?tsx?$/.test(testPath)
  let literal = JSON.stringify(scenario, null, 2)
  const secrets: string[] = []
  events.forEach((recorded, index) => {
    if (recorded.placeholder === undefined) {
      return
    }
    const variable = secretVariable(secrets.length + 1)
    secrets.push(variable)
    const data = (scenario.events?.[index] as { data: string }).data
    const ending = data.slice(recorded.placeholder.length)
    literal = literal.replace(
      JSON.stringify(data),
      `secret('${variable}')${ending === '' ? '' : ` + ${JSON.stringify(ending)}`}`,
    )
  })
  const lines = [
    ...(runner === 'vitest'
      ? ["import { expect, test } from 'rea-capture/vitest'"]
      : [
          "import { expect, test } from '@jest/globals'",
          "import { captureProcess } from 'rea-capture/jest'",
        ]),
    // Typed, so that TypeScript reads `"input"` as the event type it is and not as any string.
    ...(typescript ? ["import type { ProcessScenarioInput } from 'rea-capture'"] : []),
    '',
    '// Recorded with `rea record` (docs/record.md): every input waits for what the program showed before it.',
    ...(secrets.length === 0
      ? []
      : [
          `// What was typed into ${secrets.length === 1 ? 'a secret field' : `${secrets.length} secret fields`} is not in this file: set ${secrets.join(', ')} before running it.`,
          `function secret(name${typescript ? ': string' : ''}) {`,
          '  const value = process.env[name]',
          '  if (value === undefined) {',
          "    throw new Error(`Set ${name} to the secret typed at the recording's prompt (docs/record.md).`)",
          '  }',
          '  return value',
          '}',
          '',
        ]),
    `const scenario${typescript ? ': ProcessScenarioInput' : ''} = ${literal}`,
    '',
    runner === 'vitest'
      ? `test(${JSON.stringify(`${name} as recorded`)}, async ({ captureProcess }) => {`
      : `test(${JSON.stringify(`${name} as recorded`)}, async () => {`,
    '  const capture = await captureProcess(scenario)',
    '  expect(capture).toMatchCapture()',
    '})',
    '',
  ]
  return lines.join('\n')
}
