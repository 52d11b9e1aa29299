/**
 * `useEnv({ NAME: "value" })` at the TOP LEVEL of a spec file: sets the variables before the app
 * boots (a top-level beforeAll runs before medusaIntegrationTestRunner's) and puts the previous
 * values back afterwards, so the next spec file in this process boots with its own settings.
 */
export function useEnv(values: Record<string, string>): void {
  const previous: Record<string, string | undefined> = {}
  beforeAll(() => {
    for (const [name, value] of Object.entries(values)) {
      previous[name] = process.env[name]
      process.env[name] = value
    }
  })
  afterAll(() => {
    for (const name of Object.keys(values)) {
      if (previous[name] === undefined) delete process.env[name]
      else process.env[name] = previous[name]
    }
  })
}
