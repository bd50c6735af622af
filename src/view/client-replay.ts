/**
 * The page's script for the replay (browser JavaScript, inlined as text). Nothing is built until the reader
 * asks for it; then each side gets one xterm.js terminal, and a shared clock writes the recorded output up to
 * the current time in one batch per step, applying resizes at their place in the stream. Output chunks never
 * become DOM nodes: only the terminal's visible rows and the short list of events (input, resizes, markers) do.
 */
export const REPLAY_SCRIPT = String.raw`
;(() => {
  const REA = window.REA
  const data = REA.data
  const load = document.getElementById('rea-replay-load')
  const root = document.getElementById('rea-replay')
  if (!load || !root || data.sides.length === 0) return
  load.addEventListener('click', start)

  function start() {
    load.hidden = true
    root.hidden = false
    const duration = Math.max(1, ...data.sides.map((side) => (side.stream.length === 0 ? 0 : side.stream[side.stream.length - 1][0])))
    const slider = document.getElementById('rea-replay-time')
    const readout = document.getElementById('rea-replay-readout')
    const play = document.getElementById('rea-replay-play')
    const speed = document.getElementById('rea-replay-speed')
    const panes = document.getElementById('rea-replay-panes')
    slider.max = String(duration)
    const players = data.sides.map((side) => player(side, panes, (time) => seek(time, true)))
    const eventTimes = [...new Set(data.sides.flatMap((side) => side.stream.filter((event) => event[1] !== 'o').map((event) => event[0])))].sort((x, y) => x - y)
    let now = 0
    let playing = false
    let last = 0

    function seek(time, pause) {
      if (pause) stop()
      now = Math.max(0, Math.min(duration, time))
      for (const each of players) each.seek(now)
      slider.value = String(now)
      readout.textContent = (now / 1000).toFixed(3) + ' s / ' + (duration / 1000).toFixed(3) + ' s'
    }
    function stop() {
      playing = false
      play.textContent = 'Play'
    }
    function tick(timestamp) {
      if (!playing) return
      seek(now + (timestamp - last) * Number(speed.value), false)
      last = timestamp
      if (now >= duration) stop()
      else requestAnimationFrame(tick)
    }
    play.addEventListener('click', () => {
      if (playing) return stop()
      if (now >= duration) seek(0, false)
      playing = true
      play.textContent = 'Pause'
      last = performance.now()
      requestAnimationFrame(tick)
    })
    slider.addEventListener('input', () => seek(Number(slider.value), true))
    document.getElementById('rea-replay-next').addEventListener('click', () => {
      const next = eventTimes.find((time) => time > now)
      seek(next === undefined ? duration : next, true)
    })
    document.getElementById('rea-replay-previous').addEventListener('click', () => {
      const earlier = eventTimes.filter((time) => time < now)
      seek(earlier.length === 0 ? 0 : earlier[earlier.length - 1], true)
    })
    seek(0, true)
    document.body.dataset.reaReplay = 'ready'
  }

  const CODE_WORDS = { i: 'input', r: 'resize', m: 'marker', o: 'output' }

  /** One side's terminal and event list; seek() moves it to a time, rebuilding it when going back. */
  function player(side, panes, onPick) {
    const pane = REA.element('div', { class: 'pane', 'data-side': side.label })
    pane.append(REA.element('h3', {}, side.label))
    const host = REA.element('div', { class: 'term-host' })
    const list = REA.element('ol', { class: 'events' })
    pane.append(host, list)
    panes.append(pane)
    const items = []
    side.stream.forEach((event, index) => {
      if (event[1] === 'o') return
      const item = REA.element('li', { title: CODE_WORDS[event[1]] })
      item.append(REA.element('span', { class: 'code' }, event[1]), (event[0] / 1000).toFixed(3) + ' s  ' + JSON.stringify(event[2]))
      item.addEventListener('click', () => onPick(event[0]))
      list.append(item)
      items.push([index, item])
    })
    let terminal = null
    let position = 0
    let time = -1
    function reset() {
      if (terminal) terminal.dispose()
      host.textContent = ''
      terminal = new Terminal(REA.terminalOptions(side.terminal.columns, side.terminal.rows, side.terminal.scrollback))
      REA.applyWidthModel(terminal, side.terminal)
      terminal.open(host)
      position = 0
    }
    return {
      seek(target) {
        if (terminal === null || target < time) reset()
        const stream = side.stream
        let batch = ''
        while (position < stream.length && stream[position][0] <= target) {
          const [, code, text] = stream[position]
          if (code === 'o') batch += text
          if (code === 'r') {
            const [columns, rows] = text.split('x').map(Number)
            const current = terminal
            // xterm parses writes asynchronously: the resize must wait until what came before it is parsed.
            current.write(batch, () => current.resize(columns, rows))
            batch = ''
          }
          position++
        }
        if (batch !== '') terminal.write(batch)
        time = target
        let latest = null
        for (const [index, item] of items) {
          const past = index < position
          item.classList.toggle('past', past)
          item.classList.remove('latest')
          if (past) latest = item
        }
        if (latest) latest.classList.add('latest')
      },
    }
  }
})()
`
