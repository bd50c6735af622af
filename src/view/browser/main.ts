/**
 * The divergence page's script, bundled into one classic script at build time (tsup.page-script.ts) and inlined
 * after xterm.js. It reads the page's data (page-data.ts) and starts the checkpoint screens and the replay.
 */
import type { PageData } from '../page-data.js'
import { startCheckpointScreens } from './checkpoint-screens.js'
import { requiredElement } from './page-elements.js'
import { startReplay } from './replay.js'

const data = JSON.parse(requiredElement('rea-page-data', HTMLElement).textContent) as PageData
startCheckpointScreens(data)
startReplay(data)
