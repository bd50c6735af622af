import { captureProcess } from '../../capture/capture-process.js'
import { readScenarioFile } from '../../scenario/read-scenario-file.js'
import type { ProcessScenarioInput } from '../../scenario/schema.js'
import { parseCommandLine, type Command } from '../arguments.js'
import { EXIT, EXIT_BY_SIGNAL } from '../exit-codes.js'
import {
  checkOutputPath,
  formatDocument,
  keepUndeliveredEvidence,
  writeDocument,
  writesToTerminal,
} from '../output.js'
import { chooseProgress } from '../progress-choice.js'
import { CAPTURE_PROCESS } from '../tables/capture-process.js'

const REDIRECTION_HINT =
  'If you redirected output into the scenario file itself (rea capture-process s.json > s.json), the shell ' +
  'truncated it before REA read it: write the capture to a different file, or use --output.'

export const command: Command = {
  async run(argv, context) {
    const { values, positionals } = parseCommandLine(CAPTURE_PROCESS, argv)
    const scenarioPath = positionals[0] as string
    const format = values.json ? 'json' : values.format
    checkOutputPath(values.output, [{ path: scenarioPath, label: 'the scenario' }], 'nothing was run')
    const scenario = await readScenarioFile(scenarioPath, { hint: REDIRECTION_HINT })
    // captureProcess validates its input before anything runs, so parsed JSON may be passed as it is. A signal
    // that arrived before the launch cancels it: nothing is started, and the Evidence says so.
    // --test-environment runs the scenario as the test plugin's captures run: REA's test defaults written in.
    // The test defaults and the summary are imported only when asked for: a plain capture does not evaluate them.
    const input = scenario as ProcessScenarioInput
    const toRun = values['test-environment']
      ? (await import('../../scenario/test-defaults.js')).withTestDefaults(input)
      : input
    const progress = chooseProgress(values.progress, process.stderr, commandOf(input))
    let evidence
    try {
      evidence = await captureProcess(toRun, {
        signal: context.signals.signal,
        // The V8 coverage files of the Node.js programs the capture runs are left in that folder.
        ...(values.coverage === undefined ? {} : { coverage: { directory: values.coverage } }),
        ...progress.options,
      })
    } finally {
      progress.end()
    }
    try {
      const text =
        format === 'summary'
          ? (await import('../../evidence/summary.js')).summarizeEvidence(evidence)
          : await formatDocument(evidence, format, writesToTerminal(values.output))
      await writeDocument(text, values.output)
    } catch (error) {
      throw keepUndeliveredEvidence(evidence, values.output, error)
    }
    const signal = context.signals.received()
    return signal === undefined ? EXIT.ok : EXIT_BY_SIGNAL[signal]
  },
}

/** The command line the scenario runs, as the status line shows it (the scenario is validated later). */
function commandOf(scenario: ProcessScenarioInput): string[] {
  const input = scenario as { executable?: unknown; arguments?: unknown }
  const args: unknown[] = Array.isArray(input.arguments) ? input.arguments : []
  return [String(input.executable), ...args.map(String)]
}
