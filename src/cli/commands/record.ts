import { existsSync } from 'node:fs'
import path from 'node:path'
import { escapeControlCharacters } from '../../internal/escape-controls.js'
import { writeFileAtomic } from '../../internal/write-file-atomic.js'
import { ReaError } from '../../errors.js'
import { serializeEvidence } from '../../evidence/serialize.js'
import {
  recordedTestFile,
  recordScenario,
  replayRecording,
  type Recording,
} from '../../record/record-scenario.js'
import { parseCommandLine, usageHint, type Command } from '../arguments.js'
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
    const runner = values.runner ?? 'vitest'
    const output = values.output ?? defaultScenarioPath(executable)
    const files = [
      { flag: '--output', path: output },
      ...(values.test === undefined ? [] : [{ flag: '--test', path: values.test }]),
      ...(values.evidence === undefined ? [] : [{ flag: '--evidence', path: values.evidence }]),
    ]
    for (const file of files) {
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
    process.stderr.write(
      `rea: recording ${escapeControlCharacters([executable, ...args].join(' '))}; it ends when the program exits.\n`,
    )
    const recording = await recordScenario({
      executable,
      arguments: args,
      testEnvironment: values.test !== undefined || values['test-environment'],
      terminal: { input: process.stdin, output: process.stdout },
      signal: context.signals.signal,
    })
    // In the order a person writes a scenario (command, terminal, events), not sorted as canonical JSON would be.
    await writeFileAtomic(output, `${JSON.stringify(recording.scenario, null, 2)}\n`)
    const report = [
      `rea: scenario written to ${output} (${describeEvents(recording)})`,
      ...describeRecording(recording),
    ]
    if (values.test !== undefined) {
      await writeFileAtomic(values.test, recordedTestFile(recording, runner, values.test))
      report.push(`rea: ${runner} test written to ${values.test}`)
    }
    let code: number = EXIT.ok
    if (values.evidence !== undefined) {
      const replay = await replayRecording(recording, context.signals.signal)
      await writeFileAtomic(values.evidence, serializeEvidence(replay.evidence))
      report.push(
        replay.finalScreen.matched
          ? `rea: replay written to ${values.evidence}; its final screen is the one you saw.`
          : `rea: replay written to ${values.evidence}; its final screen DIFFERS from the one you saw:\n${screens(replay.finalScreen.seen, replay.finalScreen.replayed)}`,
      )
      code = replay.finalScreen.matched ? EXIT.ok : EXIT.different
    }
    process.stderr.write(`${report.map(escapeLines).join('\n')}\n`)
    const signal = context.signals.received()
    return signal === undefined ? code : EXIT_BY_SIGNAL[signal]
  },
}

/** `<name>.scenario.json` in the current directory, numbered when that file exists: a recording never overwrites one unasked. */
function defaultScenarioPath(executable: string): string {
  const name = path.basename(executable).replace(/\.[^.]*$/, '') || 'recording'
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
  for (const secret of recording.secrets) {
    lines.push(
      `rea: events[${secret.event_index}] was typed with echo off: it is sensitive, and its data holds ${secret.placeholder} instead of what you typed. Put the secret there to replay it (a generated test reads ${secret.variable}).`,
    )
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
