import { ReaError } from '../errors.js'
import { showName } from '../internal/escape-controls.js'
import { readInputFile, SCENARIO_FILE_MAX_BYTES } from '../internal/read-input-file.js'

export interface ReadScenarioFileOptions {
  /** Added to the message when the file is empty or not JSON, e.g. what commonly causes that. */
  readonly hint?: string
}

/**
 * Reads a scenario file and parses its JSON; validation is `captureProcess`'s (or `validateScenario`'s). Only
 * a regular file up to 16 MiB is read, and a leading UTF-8 byte-order mark is dropped. Every failure is an
 * `INVALID_SCENARIO` error naming the file.
 *
 * @example
 * const evidence = await captureProcess((await readScenarioFile('scenario.json')) as ProcessScenarioInput)
 */
export async function readScenarioFile(
  file: string,
  options: ReadScenarioFileOptions = {},
): Promise<unknown> {
  const text = await readInputFile(file, {
    label: 'The scenario file',
    code: 'INVALID_SCENARIO',
    maxBytes: SCENARIO_FILE_MAX_BYTES,
    consequence: '; nothing was run',
  })
  const hint = options.hint === undefined ? {} : { hint: options.hint }
  if (text.trim() === '') {
    throw new ReaError(
      'INVALID_SCENARIO',
      `The scenario file ${showName(file)} is empty; nothing was run.`,
      hint,
    )
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new ReaError(
      'INVALID_SCENARIO',
      `The scenario file ${showName(file)} is not valid JSON (${(error as Error).message}); nothing was run.`,
      { cause: error, ...hint },
    )
  }
}
