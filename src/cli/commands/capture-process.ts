import path from 'node:path'
import {
  captureProcess,
  ReaError,
  readScenarioFile,
  summarizeEvidence,
  type ProcessScenarioInput,
} from '../../index.js'
import { oneOf, parseCommandArguments, requirePositionals, type Command } from '../arguments.js'
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
    if (values.output !== undefined && path.resolve(values.output) === path.resolve(scenarioPath)) {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        `--output ${values.output} is the scenario file itself; choose a different output file.`,
      )
    }
    const scenario = await readScenarioFile(scenarioPath, { hint: REDIRECTION_HINT })

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
