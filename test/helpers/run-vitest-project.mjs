// Runs Vitest through its programmatic API on a fixture project, `times` times in this one process, and
// prints one JSON line per run: each test's state and errors, and the snapshot summary. The first run starts
// Vitest; each later one reruns the same test files as watch mode does (a fresh worker per file, the transformed
// modules kept), which spares it Vitest's own start.
// `file` and `name` narrow every run to the test files matching `file` and the tests whose name matches `name`.
// The Vitest is this checkout's, or the one in the node_modules folder REA_TEST_VITEST_MODULES names
// (vitest-under-test.ts).
// Usage: node run-vitest-project.mjs <root> [times] [update] [file] [name]
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const modules = process.env.REA_TEST_VITEST_MODULES
const { createVitest } = modules
  ? await import(
      pathToFileURL(createRequire(path.join(modules, '..', 'noop.js')).resolve('vitest/node')).href
    )
  : await import('vitest/node')

const [root, times = '1', update = 'false', file, name] = process.argv.slice(2)
const vitest = await createVitest('test', {
  root,
  run: true,
  watch: false,
  update: update === 'true',
  reporters: [{ onInit() {} }],
  ...(name === undefined ? {} : { testNamePattern: name }),
})

function printRun() {
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
}

await vitest.start(file === undefined ? undefined : [file])
printRun()
const files = vitest.state.getTestModules().map((module) => module.toTestSpecification())
for (let run = 1; run < Number(times); run++) {
  await vitest.rerunTestSpecifications(files, true)
  printRun()
}
await vitest.close()
process.exit(0)
