import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import * as z from 'zod'
import { isReaError, type ReaIssue } from '../../errors.js'
import { outputPathIssues } from '../../internal/output-path.js'
import { processScenarioSchema } from '../../scenario/schema.js'
import { validateScenario } from '../../scenario/validate.js'
import { describeSavedCapture, spillCapture, writeCapture } from '../evidence-output.js'
import { CAPTURE_ANNOTATIONS, HOST_SUPPORT_NOTE, type ReaTool } from '../tool.js'
import {
  invalidArguments,
  pathIssues,
  requiredIssue,
  unknownFieldIssues,
  type ToolArguments,
} from '../tool-arguments.js'
import { toolResult } from '../tool-results.js'
import { runScenario, summaryText } from './capture-process-scenario.js'

const TOOL = 'capture_process_scenario_to_file'

/** Describes the arguments for clients; they are checked below so that scenario errors keep the CLI's text. */
const argumentsSchema = z.strictObject({
  scenario: processScenarioSchema,
  output_path: z
    .string()
    .min(1)
    .describe(
      'Where to write the Evidence as canonical JSON (what `rea capture-process --json` writes), relative to ' +
        'the capture root. An existing file is replaced; its directory must exist.',
    ),
  coverage_directory: z
    .string()
    .min(1)
    .optional()
    .describe(
      'A folder (relative to the capture root; created if missing) where the V8 coverage files of the Node.js ' +
        'programs the capture runs are left, as `rea capture-process --coverage` does. Outside the scenario: ' +
        'the Evidence says only that coverage was collected.',
    ),
})
const FIELDS = Object.keys(argumentsSchema.shape)

export function captureProcessScenarioToFileTool(): ReaTool {
  return {
    name: TOOL,
    title: 'Capture a process scenario to a file',
    description:
      'The same capture as capture_process_scenario, for large captures: the Evidence is written to ' +
      '`output_path` and the result holds the absolute path, the size, the identity digest, the disposition ' +
      'and the text summary. Compare saved captures by path with compare_process_captures. ' +
      HOST_SUPPORT_NOTE,
    inputSchema: z.toJSONSchema(argumentsSchema, {
      io: 'input',
      unrepresentable: 'any',
    }) as Tool['inputSchema'],
    annotations: CAPTURE_ANNOTATIONS,
    async run(args, context) {
      const { outputPath, coverageDirectory } = checkArguments(args)
      const evidence = await runScenario(
        args['scenario'],
        context,
        coverageDirectory === undefined ? undefined : { directory: coverageDirectory },
      )
      try {
        const saved = await writeCapture(evidence, outputPath)
        return toolResult(`${describeSavedCapture(saved)}\n\n${summaryText(evidence)}`, saved)
      } catch (error) {
        // The command has run; its Evidence must not be lost because the chosen file became unwritable.
        const saved = await spillCapture(evidence)
        const code = (error as NodeJS.ErrnoException).code ?? String(error)
        return {
          ...toolResult(
            `The capture ran, but ${outputPath} could not be written (${code}). ${describeSavedCapture(saved)}` +
              `\n\n${summaryText(evidence)}`,
            saved,
          ),
          isError: true,
        }
      }
    },
  }
}

/**
 * Checks the wrapper before anything runs. When the wrapper is wrong, the scenario's own problems are listed
 * too (under `scenario.`), so one call reports everything; a wrong scenario alone keeps the CLI's message.
 */
function checkArguments(args: ToolArguments): { outputPath: string; coverageDirectory: string | undefined } {
  const issues: ReaIssue[] = unknownFieldIssues(args, FIELDS)
  const outputPath = args['output_path']
  issues.push(...pathIssues('output_path', outputPath))
  if (typeof outputPath === 'string' && issues.length === 0) {
    issues.push(...outputPathIssues(outputPath, 'output_path'))
  }
  const coverageDirectory = args['coverage_directory']
  if (coverageDirectory !== undefined) {
    issues.push(...pathIssues('coverage_directory', coverageDirectory))
  }
  if (args['scenario'] === undefined) {
    issues.push(requiredIssue('scenario'))
  } else if (issues.length > 0) {
    issues.push(...scenarioIssues(args['scenario']))
  }
  if (issues.length > 0) {
    throw invalidArguments(TOOL, issues, 'nothing was run')
  }
  return { outputPath: outputPath as string, coverageDirectory: coverageDirectory as string | undefined }
}

function scenarioIssues(scenario: unknown): ReaIssue[] {
  try {
    validateScenario(scenario)
    return []
  } catch (error) {
    if (!isReaError(error)) {
      throw error
    }
    return error.issues.map((issue) => ({
      ...issue,
      path: issue.path === '' ? 'scenario' : `scenario.${issue.path}`,
    }))
  }
}
