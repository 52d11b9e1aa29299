import { parsePayLaterConfig } from "../config"
import { PayLaterError } from "../errors"

const MINIMAL = {
  clientId: "merchant-138",
  clientSecret: "secret",
  outletId: 1000000061,
  webhookSecret: "whsec",
}

function problemsOf(input: unknown): string[] {
  try {
    parsePayLaterConfig(input)
  } catch (error) {
    expect(error).toBeInstanceOf(PayLaterError)
    expect((error as PayLaterError).code).toBe("CONFIGURATION")
    return (error as PayLaterError).details.problems as string[]
  }
  throw new Error("expected the options to be refused")
}

function messageOf(input: unknown): string {
  try {
    parsePayLaterConfig(input)
  } catch (error) {
    return (error as PayLaterError).message
  }
  throw new Error("expected the options to be refused")
}

describe("parsePayLaterConfig", () => {
  it("fills every default", () => {
    expect(parsePayLaterConfig(MINIMAL)).toEqual({
      clientId: "merchant-138",
      clientSecret: "secret",
      outletId: 1000000061,
      webhookSecret: "whsec",
      environment: "sandbox",
      apiBaseUrl: "https://connect.uat.paylaterapp.com",
      timeoutMs: 15000,
      minAmount: "300.00",
      maxAmount: "25000.00",
      requestToPayMinAmount: "1.00",
      requestToPayMaxAmount: "25000.00",
      linkExpiryMinutes: 60,
      requestToPayExpiryMinutes: 15,
      maxAttempts: 3,
    })
  })

  it("maps production to the production host", () => {
    expect(parsePayLaterConfig({ ...MINIMAL, environment: "production" }).apiBaseUrl).toBe(
      "https://connect.paylaterapp.com"
    )
    expect(parsePayLaterConfig({ ...MINIMAL, environment: " Production " }).environment).toBe("production")
  })

  it.each([
    ["http://127.0.0.1:4010", "http://127.0.0.1:4010"],
    ["http://127.0.0.1:4010/", "http://127.0.0.1:4010"],
    ["https://proxy.example/paylater///", "https://proxy.example/paylater"],
    [" https://connect.uat.paylaterapp.com ", "https://connect.uat.paylaterapp.com"],
  ])("explicit apiBaseUrl %j wins over the environment → %j", (apiBaseUrl, expected) => {
    expect(parsePayLaterConfig({ ...MINIMAL, environment: "production", apiBaseUrl }).apiBaseUrl).toBe(expected)
  })

  it("treats an empty apiBaseUrl (unset environment variable) as absent", () => {
    expect(parsePayLaterConfig({ ...MINIMAL, apiBaseUrl: "" }).apiBaseUrl).toBe("https://connect.uat.paylaterapp.com")
  })

  it("accepts a numeric-string outlet id and whole-number strings from the environment", () => {
    const config = parsePayLaterConfig({
      ...MINIMAL,
      outletId: " 1000000061 ",
      timeoutMs: "5000",
      maxAttempts: "5",
      linkExpiryMinutes: "1440",
      requestToPayExpiryMinutes: 1,
      minAmount: 500,
      maxAmount: "4000.5",
      merchantId: 138,
    })
    expect(config).toMatchObject({
      outletId: 1000000061,
      timeoutMs: 5000,
      maxAttempts: 5,
      linkExpiryMinutes: 1440,
      requestToPayExpiryMinutes: 1,
      minAmount: "500.00",
      maxAmount: "4000.50",
      merchantId: "138",
    })
  })

  it("trims credentials copied with a trailing newline", () => {
    const config = parsePayLaterConfig({ ...MINIMAL, clientId: " merchant-138\n", clientSecret: "secret\n" })
    expect(config.clientId).toBe("merchant-138")
    expect(config.clientSecret).toBe("secret")
  })

  it("is idempotent on an already parsed config", () => {
    const once = parsePayLaterConfig({ ...MINIMAL, apiBaseUrl: "http://localhost:4010", maxAmount: 4000 })
    expect(parsePayLaterConfig(once)).toEqual(once)
  })

  it("gives the merchant-facing message for a bad outlet id", () => {
    expect(messageOf({ ...MINIMAL, outletId: "outlet-61" })).toBe(
      "PayLater: outletId must be a whole number (the outlet id PayLater issued, e.g. 1000000061)"
    )
  })

  it.each([[0], [-5], [1.5], ["12a"], [""], [Number.MAX_SAFE_INTEGER + 2], [null], [{}]])(
    "refuses outletId %j",
    (outletId) => {
      expect(problemsOf({ ...MINIMAL, outletId })).toEqual([expect.stringMatching(/^outletId /)])
    }
  )

  it("lists every problem at once", () => {
    const problems = problemsOf({
      clientSecret: "",
      outletId: "x",
      environment: "staging",
      apiBaseUrl: "ftp://example.com",
      timeoutMs: 0,
      minAmount: "100",
      maxAmount: "30000",
      linkExpiryMinutes: 1441,
      requestToPayExpiryMinutes: 0,
      maxAttempts: 6,
    })
    expect(problems).toEqual([
      expect.stringMatching(/^clientId is required \(the OAuth client id PayLater issued/),
      expect.stringMatching(/^clientSecret is required/),
      expect.stringMatching(/^outletId is required|^outletId must be a whole number/),
      expect.stringMatching(/^webhookSecret is required .*merchantWebhookSecret/),
      'environment must be "sandbox" or "production"',
      expect.stringMatching(/^apiBaseUrl must be an http\(s\) address/),
      expect.stringMatching(/^timeoutMs must be a whole number between 1 and 300000/),
      expect.stringMatching(/^minAmount must be an amount in QAR between 300.00 and 25000.00/),
      expect.stringMatching(/^maxAmount must be an amount in QAR between 300.00 and 25000.00/),
      expect.stringMatching(/^linkExpiryMinutes must be a whole number between 1 and 1440/),
      expect.stringMatching(/^requestToPayExpiryMinutes must be a whole number between 1 and 1440/),
      expect.stringMatching(/^maxAttempts must be a whole number between 1 and 5/),
    ])
    const message = messageOf({ ...MINIMAL, clientId: "", maxAttempts: 0 })
    expect(message).toMatch(/^PayLater: 2 problems in the options: clientId is required .*; maxAttempts must be/)
  })

  it.each([
    ["http://user:pw@host.example"],
    ["https://host.example/?a=1"],
    ["https://host.example/#x"],
    ["not a url"],
    ["//host.example"],
    [42],
  ])("refuses apiBaseUrl %j", (apiBaseUrl) => {
    expect(problemsOf({ ...MINIMAL, apiBaseUrl })).toEqual([expect.stringMatching(/^apiBaseUrl/)])
  })

  it.each([
    [{ minAmount: "299.99" }],
    [{ maxAmount: "25000.01" }],
    [{ minAmount: "350.005" }],
    [{ maxAmount: "four thousand" }],
    [{ minAmount: true }],
  ])("refuses amount bound %j", (change) => {
    expect(problemsOf({ ...MINIMAL, ...change })).toHaveLength(1)
  })

  it("refuses minAmount above maxAmount", () => {
    expect(messageOf({ ...MINIMAL, minAmount: "5000", maxAmount: "4000" })).toBe(
      "PayLater: minAmount (5000.00) must not be greater than maxAmount (4000.00)"
    )
  })

  it("accepts equal bounds and the extremes", () => {
    expect(parsePayLaterConfig({ ...MINIMAL, minAmount: "300", maxAmount: "300" })).toMatchObject({
      minAmount: "300.00",
      maxAmount: "300.00",
    })
    expect(parsePayLaterConfig({ ...MINIMAL, maxAttempts: 1, timeoutMs: 1 }).maxAttempts).toBe(1)
  })

  it.each([[undefined], [null], ["options"], [42], [[]]])("refuses %j as options", (input) => {
    expect(messageOf(input)).toMatch(/^PayLater: options must be an object/)
  })

  it("never puts a secret into its messages", () => {
    const message = messageOf({ ...MINIMAL, clientSecret: "TOP-SECRET-VALUE", outletId: "TOP-SECRET-VALUE" })
    expect(message).not.toContain("TOP-SECRET-VALUE")
  })

  it("drops unknown keys (the provider may pass its whole options object)", () => {
    const config = parsePayLaterConfig({ ...MINIMAL, storefrontUrl: "https://shop.example" })
    expect(config).not.toHaveProperty("storefrontUrl")
  })

  it("gives Request to Pay its own bounds, 1.00 to 25000.00 QAR by default", () => {
    expect(parsePayLaterConfig(MINIMAL)).toMatchObject({
      minAmount: "300.00",
      requestToPayMinAmount: "1.00",
      requestToPayMaxAmount: "25000.00",
    })
    expect(
      parsePayLaterConfig({ ...MINIMAL, requestToPayMinAmount: "150", requestToPayMaxAmount: 40000 })
    ).toMatchObject({ requestToPayMinAmount: "150.00", requestToPayMaxAmount: "40000.00" })
  })

  it.each([[{ requestToPayMinAmount: "0" }], [{ requestToPayMinAmount: "-1" }], [{ requestToPayMaxAmount: "1.005" }], [{ requestToPayMaxAmount: true }]])(
    "refuses Request to Pay bound %j",
    (change) => {
      expect(messageOf({ ...MINIMAL, ...change })).toMatch(/requestToPay(Min|Max)Amount must be a positive amount in QAR/)
    }
  )

  it("refuses a Request to Pay minimum above its maximum", () => {
    expect(messageOf({ ...MINIMAL, requestToPayMinAmount: "500", requestToPayMaxAmount: "400" })).toBe(
      "PayLater: requestToPayMinAmount (500.00) must not be greater than requestToPayMaxAmount (400.00)"
    )
  })
})
