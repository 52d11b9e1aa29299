/**
 * The storefront's settings, written into the page by server.js as inert JSON. A real storefront
 * would read them from its build-time environment; only two values are needed to talk to Medusa.
 * The third, the local PayLater sandbox's address, exists only for the demo's sandbox helper.
 */
export interface StorefrontConfig {
  /** The Medusa server, e.g. https://api.example-store.qa */
  backendUrl: string
  /** A publishable API key (Medusa admin → Settings → Publishable API keys). Public by design. */
  publishableKey: string
  /**
   * Demo only: the local PayLater sandbox (e.g. http://127.0.0.1:4010), so the Request to Pay
   * waiting screen can link to the sandbox's stand-in for the shopper's phone app. A real
   * storefront has no such thing: the shopper approves on their own phone.
   */
  paylaterSandboxUrl?: string
}

export function readConfig(): StorefrontConfig {
  const element = document.getElementById("storefront-config")
  const parsed: unknown = JSON.parse(element?.textContent || "{}")
  const config = parsed as Partial<StorefrontConfig>
  if (!config.backendUrl || !config.publishableKey) {
    throw new Error("The storefront is missing its Medusa backend URL or publishable key")
  }
  return {
    backendUrl: config.backendUrl,
    publishableKey: config.publishableKey,
    paylaterSandboxUrl: typeof config.paylaterSandboxUrl === "string" && config.paylaterSandboxUrl ? config.paylaterSandboxUrl : undefined,
  }
}
