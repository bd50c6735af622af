import { describe, expect, test } from 'vitest'
import { compileWaitRegex } from '../../../src/scenario/wait-condition.js'
import { planDocument } from '../../../src/markdown/plan-document.js'
import { commandScenario } from '../../../src/markdown/command-scenario.js'

const plan = (text: string, environment: Record<string, string> = {}) =>
  planDocument('/docs/x.md', text, environment)

function waitOf(text: string, index = 0, environment: Record<string, string> = {}): RegExp {
  const event = plan(text, environment).blocks[0]?.commands[0]?.inputs.events[index]
  const source = event?.after?.screen_regex ?? ''
  const compiled = compileWaitRegex(source)
  if ('error' in compiled) {
    throw new Error(compiled.error)
  }
  return compiled.regex
}

describe('planDocument', () => {
  test('names blocks by heading and line, reads commands, continuation lines and the status', () => {
    const document = plan('# Top\n\n```console\n$ printf a \\\n>   b\n? 3\nab\n\n$ echo c\nc\n```\n')
    const [block] = document.blocks
    expect(block?.name).toBe('Top (line 3)')
    expect(block?.state).toBe('runnable')
    expect(block?.commands.map((command) => command.parsed.command)).toEqual(['printf a \\\n  b', 'echo c'])
    expect(block?.commands[0]?.parsed.statusLine?.status).toEqual({ kind: 'code', code: 3 })
    expect(block?.commands[0]?.parsed.expected.map((line) => line.line.text)).toEqual(['ab'])
  })

  test('front matter options apply to every block; the block wins name by name', () => {
    const document = plan(
      '---\ntitle: x\nrea: |\n  cols=60 env.A=1\n  env.B="two words"\n---\n```console cols=70 env.A=2\n$ true\n```\n',
    )
    expect(document.fileIssues).toEqual([])
    expect(document.blocks[0]?.options).toMatchObject({
      columns: 70,
      environment: { A: '2', B: 'two words' },
    })
  })

  test('a bad front matter is one issue of the file, and no block runs', () => {
    const document = plan('---\nrea: colums=60\n---\n```console\n$ true\n```\n')
    expect(document.fileIssues).toMatchObject([{ line: 2, rule: 'unknown_option' }])
    expect(document.blocks[0]?.state).toBe('invalid')
  })

  test('ignore, in the info string or as console,ignore, and other fences are left alone', () => {
    const document = plan(
      '```console ignore\n$ rm -rf /\n```\n```console,ignore\n$ x\n```\n```sh\n$ y\n```\n',
    )
    expect(document.blocks.map((block) => block.state)).toEqual(['ignored', 'ignored'])
  })

  test('option values are checked: sizes, durations, choices, names, expressions', () => {
    const issues = plan(
      '```console cols=1 timeout=soon terminal=tty filters=durations,nope redact.pid=x redact.PID=( files=a\n$ true\n```\n',
    ).blocks[0]?.issues.map((issue) => issue.message)
    expect(issues).toHaveLength(7)
    expect(issues?.join('\n')).toMatch(/cols.*from 2/)
    expect(issues?.join('\n')).toContain('files')
  })

  test('fixtures: a fence with file= is handed to the next console block', () => {
    const document = plan(
      '```json file=conf/a.json\n{"a": 1}\n```\n```console\n$ cat conf/a.json\n{"a": 1}\n```\n```text file=../escape\nx\n```\n',
    )
    expect(document.fixtures).toEqual([
      { line: 1, path: 'conf/a.json', content: '{"a": 1}\n', beforeBlock: 0 },
    ])
    expect(document.fileIssues).toMatchObject([{ line: 8, rule: 'fixture' }])
  })

  test('tokens turn their rules on; typed input becomes data or keys; secrets are sensitive', () => {
    const document = plan(
      '```console\n$ ./app\nBuilt by [USER] in [DURATION]\nName? {{Ada}}{Enter}\nPick: {Down}{Enter}\nPassword: {{$PW}}{Enter}\n```\n',
      { PW: 'secret-value' },
    )
    const block = document.blocks[0]
    const scenario = commandScenario(block!.commands[0]!, block!.options, '/tmp/w')
    expect(scenario.normalization).toMatchObject({
      placeholders: ['root', 'cwd', 'home', 'tmpdir', 'user', 'hostname'],
      filters: ['durations'],
    })
    expect(
      scenario.events?.map((event) => ('data' in event ? event.data : 'keys' in event ? event.keys : null)),
    ).toEqual(['Ada\r', ['Down', 'Enter'], 'secret-value\r'])
    expect(scenario.events?.[2]).toMatchObject({ sensitive: true })
    expect(scenario.arguments).toEqual(['-c', './app'])
  })
})

describe('when input goes in', () => {
  test('wait=prompt: the lines since the previous input end the screen, the last reading exactly the prompt', () => {
    const repl = '```console\n$ sh\n> {{1}}{Enter}\n1\n> {{1}}{Enter}\n1\n> {{exit}}{Enter}\n```\n'
    const second = waitOf(repl, 1)
    expect(second.test('> 1\n1\n> \n\n')).toBe(true)
    // The echo of the second input: the same lines above, but the prompt row now holds it.
    expect(second.test('> 1\n1\n> 1\n\n')).toBe(false)
    expect(waitOf('```console\n$ x\nName? {{Ada}}{Enter}\n```\n').test('Name?\n')).toBe(true)
  })

  test('wait=text: the prompt anywhere, text after it allowed', () => {
    const wait = waitOf('```console wait=text\n$ x\n? Name: {{Ada}}{Enter}\n```\n')
    expect(wait.test('header\n? Name: (default)\nhint below\n')).toBe(true)
  })

  test('an input at the start of a line waits for the line above; wildcards are any text', () => {
    const wait = waitOf('```console\n$ server\nListening on http://localhost:<port>\n{Ctrl+C}^C\n```\n')
    expect(wait.test('Listening on http://localhost:8080\n\n')).toBe(true)
  })

  test('terminal=screens: an input line waits for the whole screen above it', () => {
    const wait = waitOf('```console terminal=screens\n$ menu\nPick:\n> A\n  B\n{Down}\ndone\n```\n')
    expect(wait.test('Pick:\n> A\n  B\n\n')).toBe(true)
    expect(wait.test('Title\nPick:\n> A\n  B\n')).toBe(false)
  })

  test('input with nothing before it, a secret not set or too short, input inside a screen: issues at their line', () => {
    const issues = (text: string, environment: Record<string, string> = {}) =>
      plan(text, environment).blocks[0]?.issues.map((issue) => [issue.line, issue.rule])
    expect(issues('```console\n$ cat\n{{hi}}{Enter}\n```\n')).toEqual([[3, 'input_without_prompt']])
    expect(issues('```console\n$ x\nPw: {{$PW}}{Enter}\n```\n')).toEqual([[3, 'sensitive_unset']])
    expect(issues('```console\n$ x\nPw: {{$PW}}{Enter}\n```\n', { PW: 'abc' })).toEqual([
      [3, 'sensitive_too_short'],
    ])
    expect(issues('```console terminal=screens\n$ x\nA\nB {Down}\n```\n')).toEqual([[4, 'input_in_screen']])
  })
})
