// @xterm/xterm (the browser build) is a dependency only so the viewer page can inline its script as text; no
// TypeScript here imports it. Its typings start with `/// <reference lib="dom"/>`, which would give every Node
// module of REA the browser's globals once @xterm/addon-serialize's typings import it. tsconfig maps the name
// here instead: the serialize addon's typings see the names they need, as they did before the package was
// installed.
/* eslint-disable @typescript-eslint/no-explicit-any -- stand-ins for types REA never uses */
export type Terminal = any
export type ITerminalAddon = any
export type IMarker = any
export type IBufferRange = any
