// Runs Vitest through its programmatic API on a fixture project, `times` times in this one process, and
// prints one JSON line per run: each test's state and errors, and the snapshot summary.
// Usage: node run-vitest-project.mjs <root> [times] [update]
import { startVitest } from 'vitest/node'

const [root, times = '1', update = 'false'] = process.argv.slice(2)
for (let run = 0; run < Number(times); run++) {
  const vitest = await startVitest('test', [], {
    root,
    run: true,
    watch: false,
    update: update === 'true',
    reporters: [{ onInit() {} }],
  })
  const tests = vitest.state.getTestModules().flatMap((module) =>
    [...module.children.allTests()].map((testCase) => ({
      name: testCase.fullName,
      state: testCase.result().state,
      errors: (testCase.result().errors ?? []).map((error) => error.message),
    })),
  )
  const snapshot = vitest.snapshot.summary
  console.log(
    JSON.stringify({
      tests,
      snapshot: {
        added: snapshot.added,
        updated: snapshot.updated,
        matched: snapshot.matched,
        unmatched: snapshot.unmatched,
      },
    }),
  )
  await vitest.close()
}
process.exit(0)
