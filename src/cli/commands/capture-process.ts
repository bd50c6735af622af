import { readFile } from 'node:fs/promises'
import { captureProcess, ReaError, summarizeEvidence, type ProcessScenarioInput } from '../../index.js'
import {
  assertDistinctOutput,
  oneOf,
  parseCommandArguments,
  requirePositionals,
  type Command,
} from '../arguments.js'
import { EXIT } from '../exit-codes.js'
import { emitDocument, formatDocument, OUTPUT_FORMATS } from '../output.js'
import { createProgressWriter } from '../progress-writer.js'

const FORMATS = [...OUTPUT_FORMATS, 'summary'] as const
const REDIRECTION_HINT =
  'If you redirected output into the scenario file itself (rea capture-process s.json > s.json), the shell ' +
  'truncated it before REA read it: write the capture to a different file, or use --output.'

export const captureProcessCommand: Command = {
  name: 'capture-process',
  summary: 'Run a scenario in a real PTY and print its Evidence',
  usage:
    'rea capture-process <scenario.json> [--json | --format toon|json|summary] [--output <file>] [--no-progress]',
  async run(argv) {
    const { values, positionals } = parseCommandArguments(this, argv, {
      json: { type: 'boolean' },
      format: { type: 'string' },
      output: { type: 'string', short: 'o' },
      progress: { type: 'boolean', default: true },
    })
    requirePositionals(this, positionals, ['scenario.json'])
    const scenarioPath = positionals[0] as string
    const format = values.json ? 'json' : oneOf(values.format ?? 'toon', FORMATS, '--format')
    assertDistinctOutput(values.output, [{ path: scenarioPath, label: 'scenario file' }])
    const scenario = await readScenarioFile(scenarioPath)

    const controller = new AbortController()
    let cancelledBy: NodeJS.Signals | undefined
    const onSignal = (signal: NodeJS.Signals): void => {
      cancelledBy ??= signal
      controller.abort()
    }
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    try {
      // captureProcess validates its input before anything runs, so parsed JSON may be passed as it is.
      const evidence = await captureProcess(scenario as ProcessScenarioInput, {
        signal: controller.signal,
        ...(values.progress ? { onProgress: createProgressWriter(process.stderr) } : {}),
      })
      const text = format === 'summary' ? summarizeEvidence(evidence) : await formatDocument(evidence, format)
      await emitDocument(text, values.output)
    } finally {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
    if (cancelledBy !== undefined) {
      return cancelledBy === 'SIGINT' ? EXIT.cancelledBySigint : EXIT.cancelledBySigterm
    }
    return EXIT.ok
  },
}

async function readScenarioFile(file: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    throw new ReaError(
      'INVALID_SCENARIO',
      `The scenario file ${file} could not be read (${code}); nothing was run.`,
      { cause: error },
    )
  }
  if (text.trim() === '') {
    throw new ReaError('INVALID_SCENARIO', `The scenario file ${file} is empty; nothing was run.`, {
      hint: REDIRECTION_HINT,
    })
  }
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new ReaError(
      'INVALID_SCENARIO',
      `The scenario file ${file} is not valid JSON (${(error as Error).message}); nothing was run.`,
      {
        cause: error,
        hint: REDIRECTION_HINT,
      },
    )
  }
}
