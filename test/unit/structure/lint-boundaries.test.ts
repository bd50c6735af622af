import path from 'node:path'
import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, test } from 'vitest'
import { STRUCTURE_RULES } from '../../../eslint.config.js'

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..')

/** Only the structure rules, without type information: a file that does not exist can be linted. */
const eslint = new ESLint({
  cwd: REPO_ROOT,
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...STRUCTURE_RULES],
})

/** The messages of the structure rules for `source` placed at `file` (relative to the repository). */
async function structureMessages(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(REPO_ROOT, file) })
  return (result?.messages ?? []).map((message) => message.message)
}

describe('the structure rules', () => {
  test.for([
    [
      'a lower layer imports a higher one',
      'src/screen/fixture.ts',
      "import { x } from '../terminal/pty-session.js'",
      'own layer or below',
    ],
    [
      'the scenario imports the Evidence model',
      'src/scenario/fixture.ts',
      "import { x } from '../evidence/schema.js'",
      'own layer or below',
    ],
    [
      'the comparison imports the PTY host',
      'src/compare/fixture.ts',
      "import { x } from '../terminal/pty-session.js'",
      'never the PTY host',
    ],
    [
      'a view imports a capture phase',
      'src/view/fixture.ts',
      "import { x } from '../capture/launch.js'",
      'never the PTY host',
    ],
    [
      'an authority module imports process inspection',
      'src/authority/fixture.ts',
      "import { x } from '../process/identity.js'",
      'never the PTY host',
    ],
    [
      'a matcher reaches past the surface',
      'matchers/fixture.ts',
      "import { x } from '../src/authority/match-capture.js'",
      'only through src/front-end.ts',
    ],
    [
      "a runner's glue reaches past the surface",
      'matchers/vitest/fixture.ts',
      "import { x } from '../../src/authority/match-capture.js'",
      'only through src/front-end.ts',
    ],
    [
      'a reporter reaches past the surface',
      'reporter/fixture.ts',
      "import { x } from '../src/report/report-model.js'",
      'only through src/front-end.ts',
    ],
    [
      'the MCP server imports a name the surface does not give out',
      'src/mcp/fixture.ts',
      "import { compareExit } from '../compare/exit.js'",
      'from the module that defines it',
    ],
    [
      'the CLI imports through the surface',
      'src/cli/fixture.ts',
      "import { captureProcess } from '../front-end.js'",
      'from the module that defines it',
    ],
    [
      'the CLI imports a name the surface does not give out',
      'src/cli/fixture.ts',
      "import { compareExit } from '../compare/exit.js'",
      'from the module that defines it',
    ],
  ] as const)('rejects it when %s', async ([, file, source, rule]) => {
    const messages = await structureMessages(file, source)
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(rule)
  })

  test.for([
    [
      'a higher layer imports a lower one',
      'src/terminal/fixture.ts',
      "import { x } from '../screen/renderer.js'",
    ],
    [
      'the comparison reads screens',
      'src/compare/fixture.ts',
      "import { x } from '../screen/screen-replay.js'",
    ],
    ['a view reads screens', 'src/view/fixture.ts', "import { x } from '../screen/palette.js'"],
    [
      'a matcher imports the surface',
      'matchers/fixture.ts',
      "import { matchCapture } from '../src/front-end.js'",
    ],
    [
      "a runner's glue imports the surface",
      'matchers/vitest/fixture.ts',
      "import { TestCaptures } from '../../src/front-end.js'",
    ],
    [
      'the CLI imports a surface name from its module',
      'src/cli/fixture.ts',
      "import { captureProcess } from '../capture/capture-process.js'",
    ],
  ] as const)('accepts it when %s', async ([, file, source]) => {
    expect(await structureMessages(file, source)).toEqual([])
  })
})
