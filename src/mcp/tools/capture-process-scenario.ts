import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { captureProcess } from '../../capture/capture-process.js'
import type { CoverageOptions } from '../../coverage/capture-coverage.js'
import { type Evidence } from '../../evidence/schema.js'
import { summarizeEvidence } from '../../evidence/summary.js'
import { jsonSchemaFor } from '../../json-schemas.js'
import { type ProcessScenarioInput } from '../../scenario/schema.js'
import {
  describeSavedCapture,
  inlineResultBytes,
  MAX_INLINE_EVIDENCE_BYTES,
  spillCapture,
} from '../evidence-output.js'
import { CAPTURE_ANNOTATIONS, HOST_SUPPORT_NOTE, type ReaTool, type ToolContext } from '../tool.js'
import { toolResult } from '../tool-results.js'

export const CAPTURE_TOOL = 'capture_process_scenario'

/**
 * Runs a scenario exactly as `rea capture-process` does: captureProcess validates it before anything runs (so
 * its errors are the CLI's), relative paths resolve against the server's current directory, and the request's
 * abort signal is the capture's cancellation. `coverage`: as `rea capture-process --coverage`.
 */
export function runScenario(
  scenario: unknown,
  context: ToolContext,
  coverage?: CoverageOptions,
): Promise<Evidence> {
  return captureProcess(scenario as ProcessScenarioInput, {
    signal: context.signal,
    ...(context.onProgress === undefined ? {} : { onProgress: context.onProgress }),
    ...(coverage === undefined ? {} : { coverage }),
  })
}

export function summaryText(evidence: Evidence): string {
  return summarizeEvidence(evidence, { color: false })
}

export function captureProcessScenarioTool(): ReaTool {
  return {
    name: CAPTURE_TOOL,
    title: 'Capture a process scenario',
    description:
      'Run one command in a real pseudo-terminal, drive it with the scenario’s timed input, resize and signal ' +
      'events, and return its capture Evidence as structured content with a short text summary. The arguments ' +
      'are the scenario itself: only `executable` is required. `working_directory` resolves against the ' +
      'server’s capture root (its current directory); observation paths and an executable path with a slash ' +
      'resolve against `working_directory`. The command runs with the server’s permissions and environment: ' +
      'this is not a sandbox. A failing, crashing or timed-out command is recorded in the Evidence, not an ' +
      'error. Evidence larger than 8 MiB is saved to a file instead of returned; use ' +
      'capture_process_scenario_to_file to choose where large captures go. ' +
      HOST_SUPPORT_NOTE,
    inputSchema: jsonSchemaFor('scenario') as Tool['inputSchema'],
    annotations: CAPTURE_ANNOTATIONS,
    async run(args, context) {
      const evidence = await runScenario(args, context)
      const result = toolResult(summaryText(evidence), evidence)
      // The whole message counts against the client's limit: the summary holds the final screen too.
      const bytes = inlineResultBytes(result)
      if (bytes <= MAX_INLINE_EVIDENCE_BYTES) {
        return result
      }
      if (context.signal.aborted) {
        // Nobody is waiting for this answer: do not leave a file no client will be told about.
        return {
          ...toolResult(
            'The capture was cancelled; its Evidence was too large to return and was not saved.',
            {},
          ),
          isError: true,
        }
      }
      const saved = await spillCapture(evidence)
      return {
        ...toolResult(
          `The capture ran, but its result (${bytes.toLocaleString('en-US')} bytes as JSON) is larger than ` +
            `the ${MAX_INLINE_EVIDENCE_BYTES.toLocaleString('en-US')} bytes returned inline. ` +
            `${describeSavedCapture(saved)} Compare it by path, or use capture_process_scenario_to_file ` +
            `for large captures.\n\n${summaryText(evidence)}`,
          saved,
        ),
        isError: true,
      }
    },
  }
}
