// Two projects: unit (src/**/__tests__, no database, no Medusa boot) and integration
// (integration-tests/**, medusaIntegrationTestRunner on a real PostgreSQL). TEST_TYPE=unit or
// TEST_TYPE=integration picks one; unset runs both (scripts/test.js sets up the database first).
const { loadEnv } = require("@medusajs/utils")
loadEnv("test", process.cwd())

const transform = {
  "^.+\\.[jt]sx?$": [
    "@swc/jest",
    {
      jsc: {
        parser: { syntax: "typescript", decorators: true, tsx: true },
        target: "es2021",
      },
    },
  ],
}

const shared = {
  transform,
  // jest's node environment that also counts each file's CPU-seconds (scripts/test.js prints them).
  testEnvironment: "<rootDir>/scripts/lib/cpu-counting-environment.js",
  moduleFileExtensions: ["js", "ts", "tsx", "json"],
  modulePathIgnorePatterns: ["dist/", "<rootDir>/.medusa/"],
}

const unit = {
  ...shared,
  displayName: "unit",
  testMatch: ["<rootDir>/src/**/__tests__/**/*.spec.[jt]s"],
}

const integration = {
  ...shared,
  displayName: "integration",
  testMatch: ["<rootDir>/integration-tests/**/*.spec.[jt]s"],
  setupFiles: ["<rootDir>/integration-tests/setup.js"],
}

const selected =
  process.env.TEST_TYPE === "unit"
    ? [unit]
    : process.env.TEST_TYPE === "integration"
      ? [integration]
      : [unit, integration]

module.exports = {
  projects: selected,
  // The longest suites first (integration-tests/sequencer.js): the tier's wall time is then the
  // suites' total over the workers, not that plus the last long suite run alone.
  testSequencer: "<rootDir>/integration-tests/sequencer.js",
  // Every suite runs in a worker process, and a worker whose heap is past this after a suite is
  // replaced before the next one: memory stays bounded by one suite's, not the whole run's (a
  // Medusa app leaves a few hundred MB behind in its worker). Also makes jest use workers when
  // there is only one.
  workerIdleMemoryLimit: "800MB",
}
