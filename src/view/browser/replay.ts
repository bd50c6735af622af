import type { Terminal } from '@xterm/xterm'
import type { PageData, PageSide } from '../page-data.js'
import { element, requiredElement } from './page-elements.js'
import { openTerminal } from './terminals.js'

const CODE_WORDS: Record<string, string> = { i: 'input', r: 'resize', m: 'marker', o: 'output' }

/**
 * The replay. Nothing is built until the reader asks for it; then each side gets one xterm.js terminal, and a
 * shared clock writes the recorded output up to the current time in one batch per step, applying resizes at their
 * place in the stream. Output chunks never become DOM nodes: only the terminal's visible rows and the short list of
 * events (input, resizes, markers) do.
 */
export function startReplay(data: PageData): void {
  const load = document.getElementById('rea-replay-load')
  const root = document.getElementById('rea-replay')
  if (load === null || root === null || data.sides.length === 0) {
    return
  }
  load.addEventListener('click', () => {
    load.hidden = true
    root.hidden = false
    openReplay(data)
  })
}

function openReplay(data: PageData): void {
  const duration = Math.max(1, ...data.sides.map((side) => side.stream.at(-1)?.[0] ?? 0))
  const slider = requiredElement('rea-replay-time', HTMLInputElement)
  const readout = requiredElement('rea-replay-readout', HTMLElement)
  const play = requiredElement('rea-replay-play', HTMLElement)
  const speed = requiredElement('rea-replay-speed', HTMLSelectElement)
  const panes = requiredElement('rea-replay-panes', HTMLElement)
  slider.max = String(duration)
  const players = data.sides.map((side) => sidePlayer(side, panes, (time) => seek(time, true)))
  const eventTimes = [
    ...new Set(
      data.sides.flatMap((side) => side.stream.filter((event) => event[1] !== 'o').map((event) => event[0])),
    ),
  ].sort((x, y) => x - y)
  let now = 0
  let playing = false
  let last = 0

  function seek(time: number, pause: boolean): void {
    if (pause) {
      stop()
    }
    now = Math.max(0, Math.min(duration, time))
    for (const each of players) {
      each.seek(now)
    }
    slider.value = String(now)
    readout.textContent = `${(now / 1000).toFixed(3)} s / ${(duration / 1000).toFixed(3)} s`
  }
  function stop(): void {
    playing = false
    play.textContent = 'Play'
  }
  function tick(timestamp: number): void {
    if (!playing) {
      return
    }
    seek(now + (timestamp - last) * Number(speed.value), false)
    last = timestamp
    if (now >= duration) {
      stop()
    } else {
      requestAnimationFrame(tick)
    }
  }
  play.addEventListener('click', () => {
    if (playing) {
      stop()
      return
    }
    if (now >= duration) {
      seek(0, false)
    }
    playing = true
    play.textContent = 'Pause'
    last = performance.now()
    requestAnimationFrame(tick)
  })
  slider.addEventListener('input', () => seek(Number(slider.value), true))
  requiredElement('rea-replay-next', HTMLElement).addEventListener('click', () => {
    seek(eventTimes.find((time) => time > now) ?? duration, true)
  })
  requiredElement('rea-replay-previous', HTMLElement).addEventListener('click', () => {
    seek(eventTimes.filter((time) => time < now).at(-1) ?? 0, true)
  })
  seek(0, true)
  document.body.dataset['reaReplay'] = 'ready'
}

interface SidePlayer {
  /** Moves the side to a time, rebuilding its terminal when going back. */
  seek(target: number): void
}

/** One side's terminal and event list. */
function sidePlayer(side: PageSide, panes: HTMLElement, onPick: (time: number) => void): SidePlayer {
  const pane = element('div', { class: 'pane', 'data-side': side.label })
  pane.append(element('h3', {}, side.label))
  const host = element('div', { class: 'term-host' })
  const list = element('ol', { class: 'events' })
  pane.append(host, list)
  panes.append(pane)
  const items: [index: number, item: HTMLElement][] = []
  side.stream.forEach((event, index) => {
    const [at, code, text] = event
    if (code === 'o') {
      return
    }
    const item = element('li', { title: CODE_WORDS[code] ?? code })
    item.append(
      element('span', { class: 'code' }, code),
      `${(at / 1000).toFixed(3)} s  ${JSON.stringify(text)}`,
    )
    item.addEventListener('click', () => onPick(at))
    list.append(item)
    items.push([index, item])
  })
  let terminal: Terminal | null = null
  let position = 0
  let time = -1

  function reset(): Terminal {
    terminal?.dispose()
    host.textContent = ''
    position = 0
    terminal = openTerminal(host, side.terminal, side.terminal.columns, side.terminal.rows)
    return terminal
  }

  return {
    seek(target) {
      const current = terminal === null || target < time ? reset() : terminal
      const stream = side.stream
      let batch = ''
      for (
        let event = stream[position];
        event !== undefined && event[0] <= target;
        event = stream[position]
      ) {
        const [, code, text] = event
        if (code === 'o') {
          batch += text
        }
        if (code === 'r') {
          const [columns = 0, rows = 0] = text.split('x').map(Number)
          // xterm parses writes asynchronously: the resize must wait until what came before it is parsed.
          current.write(batch, () => current.resize(columns, rows))
          batch = ''
        }
        position++
      }
      if (batch !== '') {
        current.write(batch)
      }
      time = target
      let latest: HTMLElement | null = null
      for (const [index, item] of items) {
        const past = index < position
        item.classList.toggle('past', past)
        item.classList.remove('latest')
        if (past) {
          latest = item
        }
      }
      latest?.classList.add('latest')
    },
  }
}
