// Runs Jest through its programmatic API (runCLI, as the jest command does) on a fixture project, `times` times in
// this one process, and prints one JSON line per run with what `jest --json` reports of it: the snapshot summary
// and each test's title, status and failure messages. Every run is a whole Jest run (configuration read, tests
// found, a fresh module registry and test environment for each file, snapshot state saved at the end); the later
// ones are spared the start of Node and of Jest's own modules, as reruns in watch mode are.
// Usage: node run-jest-project.mjs <root> <times> [jest arguments...]
import { buildArgv, runCLI } from 'jest'

const [root, times, ...args] = process.argv.slice(2)
for (let run = 0; run < Number(times); run++) {
  const { results } = await runCLI(await buildArgv(['--rootDir', root, ...args]), [root])
  const { added, updated, matched, unmatched } = results.snapshot
  console.log(
    JSON.stringify({
      snapshot: { added, updated, matched, unmatched },
      testResults: results.testResults.map((file) => ({
        assertionResults: file.testResults.map(({ title, status, failureMessages }) => ({
          title,
          status,
          failureMessages,
        })),
      })),
    }),
  )
}
process.exit(0)
