import { findTokenCarriers } from './token-carriers.js'

/** After every test file has finished, no process carrying any REA run token may be alive. */
export function teardown(): void {
  const leaked = findTokenCarriers()
  if (leaked.length > 0) {
    throw new Error(`processes carrying a REA_RUN_TOKEN outlived the test run: ${JSON.stringify(leaked)}`)
  }
}
