import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The tests that take longest (a minute or more each), started first: a long file started last
 * holds its whole phase (the browser tests wait for the worker tests) while the cores idle.
 */
const LONG =
  /\/(e2e\/(a11y[^/]*|auth|leads|layout|finishing|markup|challenge|content|slow-phone)|worker\/(mail\/newsletter-drain|fuzz|privacy\/consent))\.test\.ts$/

/**
 * Vitest's order (a file that failed or took long last time first, else larger files first),
 * with the long browser tests ahead: on a fresh clone there is no last time, and a short file
 * that holds a long audit would start it last, with the other cores idle.
 */
class LongFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const sorted = await super.sort(files)
    const long = (f: TestSpecification) => LONG.test(f.moduleId)
    return [...sorted.filter(long), ...sorted.filter((f) => !long(f))]
  }
}

// One run, four projects: the worker tests inside workerd (two projects: most files sharing a
// workerd per runner, a few in one each) and the scripts' Node tests first,
// then the browser tests against the production build (groupOrder keeps them apart on a
// two-core machine).
export default defineConfig({
  test: {
    projects: [
      './vitest.worker.config.ts',
      './vitest.worker-isolated.config.ts',
      './vitest.node.config.ts',
      './vitest.e2e.config.ts',
    ],
    sequence: { sequencer: LongFirst },
  },
})
