import { resolveProviderOptions } from "../options"
import { isLoopbackHost, warnOnce } from "../production-guard"
import { OPTIONS } from "./fake-api"

/** A complete live configuration; each test breaks one thing. */
const LIVE = {
  ...OPTIONS,
  environment: "production",
  apiBaseUrl: undefined,
  clientSecret: "issued-by-paylater",
  webhookSecret: "also-issued-by-paylater",
}

const inProduction = (options: Record<string, unknown>) => resolveProviderOptions(options, { production: true })

describe("production guard (NODE_ENV=production)", () => {
  it("boots a live configuration on PayLater's own host, with no warning", () => {
    const resolved = inProduction(LIVE)
    expect(resolved.config.apiBaseUrl).toBe("https://connect.paylaterapp.com")
    expect(resolved.warnings).toEqual([])
  })

  it("refuses an unset environment, which used to mean the sandbox silently", () => {
    expect(() => inProduction({ ...LIVE, environment: undefined })).toThrow(
      /environment must be set explicitly when NODE_ENV=production/
    )
    expect(() => inProduction({ ...LIVE, environment: " " })).toThrow(/environment must be set explicitly/)
  })

  it("refuses plain http and this machine as the live API base", () => {
    for (const apiBaseUrl of ["http://connect.paylaterapp.com", "https://127.0.0.1:4010", "https://localhost", "https://[::1]:8443"]) {
      expect(() => inProduction({ ...LIVE, apiBaseUrl })).toThrow(/apiBaseUrl .* set allowInsecureApiBase: true only if this address is intended/)
    }
  })

  it("accepts such an address when allowInsecureApiBase says it is intended", () => {
    expect(inProduction({ ...LIVE, apiBaseUrl: "http://127.0.0.1:4010", allowInsecureApiBase: true }).config.apiBaseUrl).toBe(
      "http://127.0.0.1:4010"
    )
    expect(() => inProduction({ ...LIVE, allowInsecureApiBase: "yes" })).toThrow(/allowInsecureApiBase must be true or false/)
  })

  it("refuses the local sandbox's public secrets for live payments, naming the option but not the value", () => {
    let message = ""
    try {
      inProduction({ ...LIVE, clientSecret: "sandbox-secret", webhookSecret: "sandbox-webhook-secret" })
    } catch (error) {
      message = String(error)
    }
    expect(message).toMatch(/clientSecret is the local PayLater sandbox's built-in value.*webhookSecret is the local PayLater sandbox's built-in value/)
    expect(message).not.toContain("sandbox-secret")
  })

  it("reports every production problem in one message", () => {
    expect(() =>
      inProduction({ ...LIVE, apiBaseUrl: "http://127.0.0.1:4010", clientSecret: "sandbox-secret", webhookSecret: "sandbox-webhook-secret" })
    ).toThrow(/PayLater provider options are invalid: apiBaseUrl .*; clientSecret .*; webhookSecret /)
  })

  it("lets an explicit sandbox run (a staging store, a rehearsal) and says no real money moves", () => {
    const resolved = inProduction({ ...OPTIONS, environment: "sandbox", clientSecret: "sandbox-secret" })
    expect(resolved.warnings).toEqual([expect.stringMatching(/environment is "sandbox" .*no real money moves/)])
  })

  it("warns about a missing merchantId instead of refusing it", () => {
    const { merchantId: _m, ...rest } = LIVE
    expect(inProduction(rest).warnings).toEqual([expect.stringMatching(/merchantId is not set/)])
  })

  it("changes nothing outside production", () => {
    const resolved = resolveProviderOptions({ ...OPTIONS, environment: undefined, clientSecret: "sandbox-secret" }, { production: false })
    expect(resolved.config.environment).toBe("sandbox")
    expect(resolved.warnings).toEqual([])
  })
})

describe("loopback hosts", () => {
  it.each(["localhost", "api.localhost", "127.0.0.1", "127.1.2.3", "0.0.0.0", "[::1]", "::ffff:127.0.0.1"])("%s is this machine", (host) => {
    expect(isLoopbackHost(host)).toBe(true)
  })
  it.each(["connect.paylaterapp.com", "10.0.0.5", "128.0.0.1", "localhost.example.com"])("%s is not", (host) => {
    expect(isLoopbackHost(host)).toBe(false)
  })
})

describe("warnOnce", () => {
  it("says each warning once per process, however many provider services share it", () => {
    const logged: string[] = []
    const logger = { warn: (m: string) => logged.push(m) }
    warnOnce(logger, ["merchantId is not set (test-only text)"])
    warnOnce(logger, ["merchantId is not set (test-only text)"])
    expect(logged).toEqual(["PayLater: merchantId is not set (test-only text)"])
  })
})
