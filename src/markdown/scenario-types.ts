import type { ProcessScenarioInput } from '../scenario/schema.js'

/** An event as a scenario is written (before validation fills in defaults). */
export type ScenarioEventInput = NonNullable<ProcessScenarioInput['events']>[number]
