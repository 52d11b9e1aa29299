import { resolveProviderOptions } from "../options"
import { isProduction } from "@medusajs/framework/utils"
import { isProductionProcess, localHostReason, warnOnce } from "../production-guard"
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

describe("the live API host (ipaddr.js)", () => {
  // Each as a merchant would write it in apiBaseUrl; `new URL()` canonicalises it first, as the guard does.
  const REFUSED: Array<[string, RegExp]> = [
    ["https://localhost", /this machine/],
    ["https://localhost.", /this machine/],
    ["https://LOCALHOST..", /this machine/],
    ["https://api.localhost", /this machine/],
    ["https://foo.localhost.", /this machine/],
    ["https://localhost.localdomain", /this machine/],
    ["https://localhost.localdomain.", /this machine/],
    ["https://127.0.0.1:4010", /loopback/],
    ["https://127.1.2.3", /loopback/],
    ["https://0x7f.1", /loopback/],
    ["https://2130706433", /loopback/],
    ["https://[::1]:8443", /loopback/],
    ["https://0.0.0.0", /unspecified/],
    ["https://[::]", /unspecified/],
    ["https://[::ffff:0:0]", /ipv4Mapped/],
    ["https://[::ffff:127.0.0.1]", /ipv4Mapped/],
    ["https://[::ffff:8.8.8.8]", /ipv4Mapped/],
    ["https://169.254.169.254", /linkLocal/],
    ["https://[fe80::1]", /linkLocal/],
    ["https://10.1.2.3", /private/],
    ["https://172.16.0.1", /private/],
    ["https://172.31.255.255", /private/],
    ["https://192.168.1.1", /private/],
    ["https://100.64.0.1", /carrierGradeNat/],
    ["https://[fc00::1]", /uniqueLocal/],
    ["https://[fd12:3456::1]", /uniqueLocal/],
    ["https://[64:ff9b::7f00:1]", /rfc6052/],
    ["https://[2002:7f00:1::1]", /6to4/],
    ["https://224.0.0.1", /multicast/],
    ["https://255.255.255.255", /broadcast/],
  ]
  it.each(REFUSED)("%s is refused (%s)", (apiBaseUrl, why) => {
    expect(localHostReason(new URL(apiBaseUrl).hostname)).toMatch(why)
    expect(() => inProduction({ ...LIVE, apiBaseUrl })).toThrow(/apiBaseUrl .* set allowInsecureApiBase: true only if this address is intended/)
    expect(inProduction({ ...LIVE, apiBaseUrl, allowInsecureApiBase: true }).config.environment).toBe("production")
  })

  it.each(["https://connect.paylaterapp.com", "https://localhost.example.com", "https://mylocalhost.qa", "https://172.32.0.1", "https://8.8.8.8", "https://[2001:4860:4860::8888]"])(
    "%s may be the live API (names are not resolved)",
    (apiBaseUrl) => {
      expect(localHostReason(new URL(apiBaseUrl).hostname)).toBeNull()
      expect(inProduction({ ...LIVE, apiBaseUrl }).config.apiBaseUrl).toBe(apiBaseUrl)
    }
  )
})

describe("production, as Medusa reads it", () => {
  it.each([
    ["production", true],
    ["prod", true],
    ["development", false],
    ["test", false],
    ["", false],
    [undefined, false],
    ["Production", false],
  ])("NODE_ENV=%s: %s, the same as Medusa's isProduction()", (value, expected) => {
    expect(isProductionProcess({ NODE_ENV: value } as NodeJS.ProcessEnv)).toBe(expected)
    const before = process.env.NODE_ENV
    try {
      if (value === undefined) delete process.env.NODE_ENV
      else process.env.NODE_ENV = value
      expect(isProduction()).toBe(expected)
    } finally {
      process.env.NODE_ENV = before
    }
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
