import { PayLaterLinkProviderService } from "../services/link"
import { resolveProviderOptions } from "../options"
import { fillTemplate } from "../templates"
import { OPTIONS } from "./fake-api"

describe("provider options", () => {
  it("accepts a complete configuration and fills the storefront defaults", () => {
    const resolved = resolveProviderOptions(OPTIONS)
    expect(resolved.backendUrl).toBe("https://api.shop.qa")
    expect(resolved.templates).toEqual({
      success: "{storefront_url}/order/confirmed/{order_id}",
      // No cart id: anyone holding the return URL could read the cart (docs/security.md).
      failure: "{storefront_url}/checkout?step=payment&paylater_error={reason}",
      pending: "{storefront_url}/order/pending",
    })
    expect(resolved.config.outletId).toBe(1000000061)
  })

  it("refuses boot with every problem named at once", () => {
    const { clientSecret: _s, backendUrl: _b, ...rest } = OPTIONS
    expect(() => PayLaterLinkProviderService.validateOptions({ ...rest, successUrlTemplate: "{storefront_url}/{orderid}" })).toThrow(
      /clientSecret is required.*backendUrl must be an absolute http\(s\) URL.*unknown placeholder\(s\) \{orderid\}/
    )
  })

  it("refunds payments without an order by default, holds them when asked, refuses anything else", () => {
    expect(resolveProviderOptions(OPTIONS).paidWithoutOrder).toBe("refund")
    expect(resolveProviderOptions({ ...OPTIONS, paidWithoutOrder: "hold" }).paidWithoutOrder).toBe("hold")
    expect(() => resolveProviderOptions({ ...OPTIONS, paidWithoutOrder: "keep" })).toThrow(/paidWithoutOrder must be "refund" or "hold"/)
  })

  it("refuses a template that does not produce an absolute URL", () => {
    expect(() => resolveProviderOptions({ ...OPTIONS, failureUrlTemplate: "/checkout?e={reason}" })).toThrow(
      /failureUrlTemplate must produce an absolute http\(s\) URL/
    )
  })

  it("never echoes secrets in its messages", () => {
    try {
      resolveProviderOptions({ ...OPTIONS, outletId: "abc" })
      throw new Error("should have thrown")
    } catch (error) {
      expect(String(error)).toMatch(/outletId/)
      expect(String(error)).not.toContain(OPTIONS.clientSecret)
      expect(String(error)).not.toContain(OPTIONS.webhookSecret)
    }
  })
})

describe("templates", () => {
  it("URL-encodes data placeholders but keeps the storefront base as is", () => {
    const url = fillTemplate("{storefront_url}/checkout?e={reason}&cart_id={cart_id}", {
      storefront_url: "https://shop.qa/",
      reason: "a&b=c",
      cart_id: "cart 1/2",
    })
    expect(url).toBe("https://shop.qa/checkout?e=a%26b%3Dc&cart_id=cart%201%2F2")
  })
})

describe("webhook options", () => {
  it("waits 5 s before settling and leaves the concurrency to the database pool unless told", () => {
    expect(resolveProviderOptions(OPTIONS).webhooks).toEqual({ delayMs: 5000, concurrency: null })
  })

  it("reads a delay and a concurrency, from numbers or from environment text", () => {
    expect(resolveProviderOptions({ ...OPTIONS, webhookDelayMs: 0, webhookConcurrency: 3 }).webhooks).toEqual({ delayMs: 0, concurrency: 3 })
    expect(resolveProviderOptions({ ...OPTIONS, webhookDelayMs: "250", webhookConcurrency: "8" }).webhooks).toEqual({ delayMs: 250, concurrency: 8 })
  })

  it("refuses boot on a concurrency or delay out of range, naming both", () => {
    expect(() => resolveProviderOptions({ ...OPTIONS, webhookConcurrency: 0, webhookDelayMs: 60_001 })).toThrow(
      /webhookConcurrency must be a whole number between 1 and 64.*webhookDelayMs must be a whole number between 0 and 60000/
    )
    expect(() => resolveProviderOptions({ ...OPTIONS, webhookConcurrency: "many" })).toThrow(/webhookConcurrency/)
  })
})
