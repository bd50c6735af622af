import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { findMarkdownFiles } from '../../../src/markdown/find-files.js'

const root = mkdtempSync(path.join(tmpdir(), 'rea-find-md-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))
for (const file of [
  'README.md',
  'docs/a.md',
  'docs/deep/b.md',
  'docs/notes.txt',
  'node_modules/x/c.md',
  '.git/d.md',
]) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
  writeFileSync(path.join(root, file), '')
}

describe('findMarkdownFiles', () => {
  test('a folder gives its .md files, outside node_modules and dot folders; a file is taken as named', () => {
    const found = findMarkdownFiles(['docs', 'README.md', 'docs/notes.txt'], root)
    expect(found.files.map((file) => path.relative(root, file))).toEqual([
      'docs/a.md',
      'docs/deep/b.md',
      'README.md',
      'docs/notes.txt',
    ])
    expect(found.problems).toEqual([])
  })

  test('globs: * within a name, ** across folders; each file once', () => {
    const found = findMarkdownFiles(['docs/*.md', 'docs/**/*.md', '*.md'], root)
    expect(found.files.map((file) => path.relative(root, file))).toEqual([
      'docs/a.md',
      'docs/deep/b.md',
      'README.md',
    ])
  })

  test('what names nothing is a problem, named', () => {
    expect(findMarkdownFiles(['missing.md', 'docs/*.rst'], root).problems).toEqual([
      'missing.md: no such file or folder',
      'docs/*.rst: no Markdown file matches',
    ])
  })
})
