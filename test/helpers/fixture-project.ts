import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { REPO_ROOT } from './fixtures.js'

/**
 * Copies a user project from test/fixtures/projects into a temporary folder where `rea` is installed (linked
 * to this repository's built package) along with any of this checkout's `node_modules` entries in `links`.
 * Call at module level: the copies are removed after the file's tests.
 */
export function fixtureProjects(name: string, links: readonly string[] = []): () => string {
  const copies: string[] = []
  afterAll(() => copies.forEach((copy) => rmSync(copy, { recursive: true, force: true })))
  return () => {
    const project = mkdtempSync(path.join(tmpdir(), `rea-${name}-`))
    copies.push(project)
    cpSync(path.join(REPO_ROOT, 'test/fixtures/projects', name), project, { recursive: true })
    mkdirSync(path.join(project, 'node_modules'))
    symlinkSync(REPO_ROOT, path.join(project, 'node_modules/rea'))
    for (const link of links) {
      symlinkSync(path.join(REPO_ROOT, 'node_modules', link), path.join(project, 'node_modules', link))
    }
    return project
  }
}
