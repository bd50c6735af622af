import { existsSync } from 'node:fs'
import { escapeControlCharacters, showName } from '../../internal/escape-controls.js'
import { writeFileAtomic } from '../../internal/write-file-atomic.js'
import { ReaError } from '../../errors.js'
import { serializeEvidence } from '../../evidence/serialize.js'
import { programName } from '../../record/program-name.js'
import { parsePromptRule } from '../../record/prompt-rules.js'
import {
  captureReplay,
  recordedTestFile,
  recordScenario,
  replayRecording,
  type Recording,
} from '../../record/record-scenario.js'
import { recordingStarted, summarizeRecording } from '../../record/recording-summary.js'
import { MAX_VERIFY_REPLAYS, verifyRecording } from '../../record/verify-recording.js'
import { parseCommandLine, usageHint, type Command } from '../arguments.js'
import type { OptionValues } from '../command-table.js'
import { RECORD } from '../tables/record.js'
import { EXIT, EXIT_BY_SIGNAL } from '../exit-codes.js'
import { checkOutputPath } from '../output.js'

export const command: Command = {
  async run(argv, context) {
    const { values, positionals } = parseCommandLine(RECORD, argv)
    const [executable, ...args] = positionals as [string, ...string[]]
    if (values.runner !== undefined && values.test === undefined) {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        '--runner chooses the runner of the test file --test writes: give --test <file> too.',
        { hint: usageHint(RECORD) },
      )
    }
    const { runner, dryRun, verify, secretRules } = recordingChoices(values)
    const output = values.output ?? defaultScenarioPath(programName(executable, args))
    const files = [
      { flag: '--output', path: output },
      ...(values.test === undefined ? [] : [{ flag: '--test', path: values.test }]),
      ...(values.evidence === undefined ? [] : [{ flag: '--evidence', path: values.evidence }]),
    ]
    for (const file of dryRun ? [] : files) {
      const others = files
        .filter((other) => other !== file)
        .map((other) => ({ path: other.path, label: `the ${other.flag} file` }))
      checkOutputPath(file.path, others, 'nothing was run')
    }
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new ReaError(
        'INVALID_ARGUMENTS',
        `rea record needs a terminal: its ${process.stdin.isTTY ? 'standard output' : 'standard input'} is not one, so there is no one to use the program.`,
        { hint: 'Run it from an interactive terminal, without redirecting its input or output.' },
      )
    }
    process.stderr.write(recordingStarted([executable, ...args]))
    const recording = await recordScenario({
      executable,
      arguments: args,
      testEnvironment: values.test !== undefined || values['test-environment'],
      terminal: { input: process.stdin, output: process.stdout },
      signal: context.signals.signal,
      secretRules,
    })
    // In the order a person writes a scenario (command, terminal, events), not sorted as canonical JSON would be.
    const scenarioText = `${JSON.stringify(recording.scenario, null, 2)}\n`
    const testText = values.test === undefined ? undefined : recordedTestFile(recording, runner, values.test)
    const report: string[] = []
    if (dryRun) {
      // Printed for review, never written: the person reads the events before anything reaches a file.
      process.stdout.write(
        `${scenarioText}${testText === undefined ? '' : `\n// ${values.test}\n${testText}`}`,
      )
      report.push(
        `rea: dry run: nothing was written (${describeEvents(recording)}); the scenario is printed above.`,
      )
    } else {
      await writeFileAtomic(output, scenarioText)
      report.push(`rea: scenario written to ${showName(output)} (${describeEvents(recording)})`)
    }
    report.push(...describeRecording(recording))
    if (values.test !== undefined && testText !== undefined && !dryRun) {
      await writeFileAtomic(values.test, testText)
      report.push(`rea: ${runner} test written to ${showName(values.test)}`)
    }
    let code: number = EXIT.ok
    if (values.evidence !== undefined) {
      const replay = await replayRecording(recording, context.signals.signal)
      await writeFileAtomic(values.evidence, serializeEvidence(replay.evidence))
      report.push(
        replay.finalScreen.matched
          ? `rea: replay written to ${showName(values.evidence)}; its final screen is the one you saw.`
          : `rea: replay written to ${showName(values.evidence)}; its final screen DIFFERS from the one you saw:\n${screens(replay.finalScreen.seen, replay.finalScreen.replayed)}`,
      )
      code = replay.finalScreen.matched ? EXIT.ok : EXIT.different
    }
    if (verify !== undefined && context.signals.received() === undefined) {
      const deterministic = await verifyAndReport(recording, verify, report, context.signals.signal)
      code = deterministic ? code : EXIT.different
    }
    process.stderr.write(`${report.map(escapeLines).join('\n')}\n`)
    const signal = context.signals.received()
    return signal === undefined ? code : EXIT_BY_SIGNAL[signal]
  },
}

/** The choices of `rea record` beyond the files, checked before anything runs. */
function recordingChoices(values: OptionValues<typeof RECORD>) {
  const runner = values.runner ?? 'vitest'
  const dryRun = values['dry-run']
  if (dryRun && values.evidence !== undefined) {
    throw new ReaError(
      'INVALID_ARGUMENTS',
      '--dry-run writes nothing, and --evidence writes a file: give one of them.',
      { hint: usageHint(RECORD) },
    )
  }
  const verify = values.verify === undefined ? undefined : replayCount(values.verify)
  const secretRules = {
    secret: values.secret.map((source) => parsePromptRule(source, '--secret')),
    notSecret: values['not-secret'].map((source) => parsePromptRule(source, '--not-secret')),
  }
  return { runner, dryRun, verify, secretRules }
}

/** Replays the recording `replays` times and adds what was found to `report`; true when the replays held. */
async function verifyAndReport(
  recording: Recording,
  replays: number,
  report: string[],
  signal: AbortSignal,
): Promise<boolean> {
  process.stderr.write(`rea: verifying: replaying the scenario ${replays} times…\n`)
  const verified = await verifyRecording(recording, replays, (recorded) => captureReplay(recorded, signal))
  report.push(...verified.report.map((line) => `rea: verify: ${line}`))
  return verified.deterministic
}

/** `--verify <n>`: how many replays, a whole number from 2. */
function replayCount(value: string): number {
  const count = Number(value)
  if (!Number.isInteger(count) || count < 2 || count > MAX_VERIFY_REPLAYS) {
    throw new ReaError(
      'INVALID_ARGUMENTS',
      `--verify must be a whole number of replays from 2 to ${MAX_VERIFY_REPLAYS}: got ${JSON.stringify(value)}.`,
    )
  }
  return count
}

/** `<name>.scenario.json` in the current directory, numbered when that file exists: a recording never overwrites one unasked. */
function defaultScenarioPath(name: string): string {
  for (let index = 1; ; index++) {
    const candidate = index === 1 ? `${name}.scenario.json` : `${name}-${index}.scenario.json`
    if (!existsSync(candidate)) {
      return candidate
    }
  }
}

function describeEvents(recording: Recording): string {
  const inputs = recording.events.filter((recorded) => recorded.event.type === 'input').length
  const resizes = recording.events.length - inputs
  return `${inputs} input ${inputs === 1 ? 'event' : 'events'}, ${resizes} ${resizes === 1 ? 'resize' : 'resizes'}`
}

function describeRecording(recording: Recording): string[] {
  const lines: string[] = []
  const { placeholders, filters } = recording.proposed
  if (placeholders.length + filters.length > 0) {
    lines.push(
      `rea: proposed normalization (written into the scenario): ${[
        ...(placeholders.length === 0 ? [] : [`placeholders ${placeholders.join(', ')}`]),
        ...(filters.length === 0 ? [] : [`filters ${filters.join(', ')}`]),
      ].join('; ')}: the output holds values that change between runs or machines.`,
    )
  }
  const command = [recording.scenario.executable, ...(recording.scenario.arguments ?? [])]
  for (const line of summarizeRecording(recording.events, recording.secrets, command)) {
    lines.push(`rea: ${line.text}`)
  }
  lines.push(...recording.notes.map((note) => `rea: note: ${note}`))
  if (recording.processesEnded > 0) {
    lines.push(`rea: ${recording.processesEnded} process(es) the program left running were ended.`)
  }
  return lines
}

function screens(seen: readonly string[], replayed: readonly string[] | undefined): string {
  const block = (rows: readonly string[]): string => rows.map((row) => `  | ${row}`).join('\n')
  return `you saw:\n${block(seen)}\nthe replay showed:\n${replayed === undefined ? '  (no final frame was recorded)' : block(replayed)}`
}

function escapeLines(text: string): string {
  return text
    .split('\n')
    .map((line) => escapeControlCharacters(line))
    .join('\n')
}
