import { captureProcess } from '../capture/capture-process.js'
import type { Evidence } from '../evidence/schema.js'
import { prepareProcessInspection } from '../process/prepare-inspection.js'
import { resolveScenario } from '../scenario/resolve.js'
import type { ProcessScenarioInput } from '../scenario/schema.js'
import { TEST_DEFAULT_PLACEHOLDERS, withTestDefaults } from '../scenario/test-defaults.js'
import { validateScenario } from '../scenario/validate.js'
import { loadPtyBackend } from '../terminal/load-pty-backend.js'
import type { PtyExit } from '../terminal/pty-backend.js'
import type { RecordedTimeline } from './timeline.js'
import { normalizationRules } from './avoided-spans.js'
import { buildRecordedScenario, type ProposedNormalization } from './build-scenario.js'
import type { RecordedEvent } from './build-events.js'
import { programName } from './program-name.js'
import type { SecretRules } from './prompt-rules.js'
import type { PersonTerminal } from '../internal/person-terminal.js'
import { recordSession } from './record-session.js'
import { compareFinalScreens, withSecrets, type FinalScreens } from './replay-recording.js'
import { renderTestFile, secretVariable, type TestRunner } from './test-file.js'

export interface RecordScenarioOptions {
  readonly executable: string
  readonly arguments: readonly string[]
  /** The capture root: the command runs here, and paths are written relative to it. Default: the current directory. */
  readonly root?: string
  /** Record in the test plugin's environment, as a test written with `--test` will run. */
  readonly testEnvironment?: boolean
  readonly terminal: PersonTerminal
  /** The recorder's own signals: forwarded to the program, which ends the session when it exits. */
  readonly signal?: AbortSignal
  /** Prompts the person named secret or not secret (`--secret`, `--not-secret`), over the recorder's judgement. */
  readonly secretRules?: SecretRules
}

/** A finished recording: the scenario to write and what the person should be told about it. */
export interface Recording {
  /** What the recording is named after: the program the command runs (`signup` for `node signup.mjs`). */
  readonly name: string
  readonly scenario: ProcessScenarioInput
  readonly events: readonly RecordedEvent[]
  readonly proposed: ProposedNormalization
  readonly notes: readonly string[]
  /** Each secret's placeholder in `data` and the variable a generated test reads it from. */
  readonly secrets: readonly {
    readonly placeholder: string
    readonly variable: string
    readonly event_index: number
  }[]
  readonly exit: PtyExit
  /** Descendants the recorder had to end after the program exited. */
  readonly processesEnded: number
  readonly root: string
  readonly testEnvironment: boolean
  /** What the session saw, kept in memory for the final-screen comparison of a replay; never written. */
  readonly timeline: RecordedTimeline
  /** For the final-screen comparison of a replay: the recording's placeholder context. */
  readonly environment: Readonly<Record<string, string>>
  readonly workingDirectory: string
}

/**
 * Records a scenario by running the command connected to the person's terminal (docs/record.md). Everything
 * that can be checked is checked before the program starts: the command line as a scenario, the PTY backend,
 * the executable on this host.
 *
 * @example
 * const recording = await recordScenario({ executable: 'node', arguments: ['signup.mjs'], terminal: { input: process.stdin, output: process.stdout } })
 */
export async function recordScenario(options: RecordScenarioOptions): Promise<Recording> {
  const root = options.root ?? process.cwd()
  const testEnvironment = options.testEnvironment === true
  const base: ProcessScenarioInput = {
    executable: options.executable,
    arguments: [...options.arguments],
    terminal: { columns: options.terminal.output.columns, rows: options.terminal.output.rows },
  }
  const validated = validateScenario(testEnvironment ? withTestDefaults(base) : base)
  const backend = await loadPtyBackend()
  await prepareProcessInspection()
  const resolved = resolveScenario(validated, root)
  const session = await recordSession(resolved, backend, options.terminal, options.signal)
  const rules = normalizationRules({
    root: resolved.root,
    workingDirectory: resolved.workingDirectory,
    environment: resolved.environment,
  })
  const built = buildRecordedScenario(
    session.timeline,
    {
      executable: options.executable,
      arguments: options.arguments,
      root: resolved.root,
      ...(testEnvironment ? { basePlaceholders: TEST_DEFAULT_PLACEHOLDERS } : {}),
    },
    rules,
    options.secretRules,
  )
  const secrets = built.events.flatMap((recorded, event_index) =>
    recorded.placeholder === undefined ? [] : [{ placeholder: recorded.placeholder, event_index }],
  )
  return {
    name: programName(options.executable, options.arguments),
    scenario: built.scenario,
    events: built.events,
    proposed: built.proposed,
    notes: built.notes,
    secrets: secrets.map((secret, index) => ({ ...secret, variable: secretVariable(index + 1) })),
    exit: session.exit,
    processesEnded: session.cleanup.processes.length,
    root: resolved.root,
    testEnvironment,
    timeline: session.timeline,
    environment: resolved.environment,
    workingDirectory: resolved.workingDirectory,
  }
}

/** A test file for the recording (`--test`). */
export function recordedTestFile(recording: Recording, runner: TestRunner, testPath: string): string {
  return renderTestFile(runner, testPath, recording.scenario, recording.events, recording.name)
}

export interface RecordingReplay {
  readonly evidence: Evidence
  readonly finalScreen: FinalScreens
}

/**
 * Replays the recorded scenario once (`--evidence`), with the secrets that were typed put back in memory, in
 * the environment the recording ran in, and says whether the replay's final screen is the one the person saw.
 */
export async function replayRecording(recording: Recording, signal?: AbortSignal): Promise<RecordingReplay> {
  const evidence = await captureReplay(recording, signal)
  return {
    evidence,
    finalScreen: await compareFinalScreens(recording.timeline, evidence, recording.proposed, {
      root: recording.root,
      workingDirectory: recording.workingDirectory,
      environment: recording.environment,
    }),
  }
}

/** One capture of the recorded scenario, secrets put back in memory, in the environment the recording ran in. */
export function captureReplay(recording: Recording, signal?: AbortSignal): Promise<Evidence> {
  const replay = withSecrets(recording.scenario, recording.events)
  return captureProcess(recording.testEnvironment ? withTestDefaults(replay) : replay, {
    root: recording.root,
    ...(signal === undefined ? {} : { signal }),
  })
}
