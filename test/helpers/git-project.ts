import { execFileSync } from 'node:child_process'

/** Runs git in a fixture project, as a named person (a CI machine has no git identity to commit with). */
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.test', ...args], {
    cwd,
    encoding: 'utf8',
  })

/** Puts a project under git with everything in it committed: its authorities as a reviewer last saw them. */
export function committed(project: string): void {
  git(project, 'init', '-q')
  git(project, 'add', '-A')
  git(project, 'commit', '-q', '-m', 'authorities')
}
