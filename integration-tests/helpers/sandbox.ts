/**
 * `useSandbox()`: one local PayLater sandbox per spec file, wired into the app under test.
 *
 * Call it at the TOP LEVEL of a spec file (not inside `testSuite`). Jest runs a file's top-level
 * `beforeAll` before the `beforeAll` of `medusaIntegrationTestRunner`'s describe block, and that
 * inner hook is where the runner loads medusa-config.ts and boots the app, so
 * `PAYLATER_API_BASE_URL` is already pointing at the sandbox when the provider reads its options.
 *
 * The app's port is only known once it has booted, so webhooks are wired from inside the suite:
 *   beforeAll(() => paylater.pointWebhooksAt(api))
 */
import type { AxiosInstance } from "axios"
import { startSandbox } from "../../src/sandbox"
import type { PayLaterSandbox, SandboxOptions } from "../../src/sandbox/types"

/** Medusa's core webhook route for provider `paylater` registered with id `paylater`. */
export const PAYLATER_WEBHOOK_PATH = "/hooks/payment/paylater_paylater"

export interface SandboxHandle {
  /** The running sandbox; throws if asked before the hook started it. */
  (): PayLaterSandbox
  /** The sandbox's base URL (what PAYLATER_API_BASE_URL, or `baseUrlEnv`, was set to). */
  url(): string
  /**
   * Sends the sandbox's webhooks to the booted app (`api.defaults.baseURL` + path) and returns the
   * URL. Remembered, so it survives the per-test reset.
   */
  pointWebhooksAt(api: AxiosInstance, path?: string): string
  /** Sends the webhooks nowhere again, and forgets the target (a shared app's next suite starts so). */
  forgetWebhooks(): void
}

export interface UseSandboxOptions extends SandboxOptions {
  /** `reset()` the sandbox before every test, as the runner resets the database (default true). */
  resetEachTest?: boolean
  /**
   * The variable the sandbox's URL is put in (default PAYLATER_API_BASE_URL, the default
   * registration's; PAYLATER_B_API_BASE_URL turns on medusa-config.ts's second registration).
   */
  baseUrlEnv?: string
}

export function useSandbox(opts: UseSandboxOptions = {}): SandboxHandle {
  const { resetEachTest = true, baseUrlEnv = "PAYLATER_API_BASE_URL", ...sandboxOptions } = opts
  let sandbox: PayLaterSandbox | undefined
  let webhookUrl: string | null = null
  let previousBaseUrl: string | undefined

  beforeAll(async () => {
    const started = await startSandbox({ port: 0, host: "127.0.0.1", ...sandboxOptions })
    sandbox = started
    previousBaseUrl = process.env[baseUrlEnv]
    process.env[baseUrlEnv] = started.url
  })

  if (resetEachTest) {
    beforeEach(() => {
      if (!sandbox) return
      sandbox.reset()
      // A reset may drop the target back to the constructor's; put ours back.
      if (webhookUrl) sandbox.setWebhookUrl(webhookUrl)
    })
  }

  afterAll(async () => {
    await sandbox?.stop()
    sandbox = undefined
    if (previousBaseUrl === undefined) delete process.env[baseUrlEnv]
    else process.env[baseUrlEnv] = previousBaseUrl
  })

  const get = (): PayLaterSandbox => {
    if (!sandbox) throw new Error("PayLater sandbox is not running (call useSandbox() at the top level)")
    return sandbox
  }
  const handle = get as SandboxHandle
  handle.url = () => get().url
  handle.pointWebhooksAt = (api, path = PAYLATER_WEBHOOK_PATH) => {
    const base = api.defaults.baseURL
    if (!base) throw new Error("the app has not booted yet: call pointWebhooksAt from a beforeAll inside testSuite")
    webhookUrl = new URL(path, base).toString()
    get().setWebhookUrl(webhookUrl)
    return webhookUrl
  }
  handle.forgetWebhooks = () => {
    webhookUrl = null
    sandbox?.setWebhookUrl(null)
  }
  return handle
}
