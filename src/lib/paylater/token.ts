import type { AxiosInstance } from "axios"
import { z } from "zod"
import { PayLaterError } from "./errors"
import { sendRequest } from "./http"
import { isObject, NOT_JSON, parseJson, unrecognisedAnswer } from "./remote-errors"
import { withRetries } from "./retry"
import type { PayLaterConfig, PayLaterLogger } from "./types"

/**
 * OAuth client-credentials token from PayLater's Keycloak realm, cached until shortly before it
 * expires. Concurrent callers share one fetch, so a burst of checkouts costs one token request.
 */

export const TOKEN_PATH = "/auth/realms/api/protocol/openid-connect/token"

// Keycloak's own lifetime is 300 s; used only if an answer ever omits expires_in.
const FALLBACK_LIFETIME_S = 60
const MAX_EARLY_REFRESH_MS = 30_000

// Keycloak's answers when the client id or secret is wrong, unknown or disabled.
const CREDENTIAL_ERRORS = new Set(["invalid_client", "unauthorized_client", "invalid_grant"])

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive().optional(),
})

export interface IssuedToken {
  accessToken: string
  /** now() at which the token must no longer be used. */
  refreshAt: number
}

export interface TokenDeps {
  http: AxiosInstance
  logger: PayLaterLogger
  now: () => number
  sleep: (ms: number) => Promise<void>
  random?: () => number
}

/** Refresh min(30 s, 10 % of the lifetime) early so a token never expires in flight. */
export function refreshMoment(issuedAt: number, lifetimeMs: number): number {
  return issuedAt + lifetimeMs - Math.min(MAX_EARLY_REFRESH_MS, Math.floor(lifetimeMs / 10))
}

function credentialError(status: number, error: string, description: string | undefined) {
  return new PayLaterError(
    "INVALID_CREDENTIALS",
    `PayLater refused the client id/secret: check clientId and clientSecret (${error}${description ? `: ${description}` : ""})`,
    { httpStatus: status, remoteCode: error, details: { operation: "token" } }
  )
}

async function requestToken(config: PayLaterConfig, deps: TokenDeps): Promise<IssuedToken> {
  const issuedAt = deps.now()
  const answer = await sendRequest(
    deps.http,
    {
      operation: "token",
      method: "POST",
      url: `${config.apiBaseUrl}${TOKEN_PATH}`,
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: config.clientId,
        client_secret: config.clientSecret,
      }).toString(),
      timeoutMs: config.timeoutMs,
    },
    deps.now
  )
  deps.logger.debug?.(`PayLater token: HTTP ${answer.status} in ${answer.durationMs} ms`)
  const body = parseJson(answer.text)
  if (isObject(body) && typeof body.error === "string") {
    if (CREDENTIAL_ERRORS.has(body.error)) {
      const description = typeof body.error_description === "string" ? body.error_description : undefined
      throw credentialError(answer.status, body.error, description)
    }
  }
  const parsed = answer.status >= 200 && answer.status < 300 && body !== NOT_JSON ? tokenAnswer.safeParse(body) : null
  if (!parsed?.success) {
    throw unrecognisedAnswer(answer, body, "token", "an answer to the token request that is not a token (check apiBaseUrl)")
  }
  const lifetimeMs = (parsed.data.expires_in ?? FALLBACK_LIFETIME_S) * 1000
  return { accessToken: parsed.data.access_token, refreshAt: refreshMoment(issuedAt, lifetimeMs) }
}

export class TokenCache {
  private cached: IssuedToken | null = null
  private inflight: Promise<string> | null = null

  constructor(
    private readonly config: PayLaterConfig,
    private readonly deps: TokenDeps
  ) {}

  get(): Promise<string> {
    if (this.cached && this.deps.now() < this.cached.refreshAt) {
      return Promise.resolve(this.cached.accessToken)
    }
    if (!this.inflight) {
      this.inflight = this.fetch().finally(() => {
        this.inflight = null
      })
    }
    return this.inflight
  }

  /**
   * Fetches a fresh token once, without retries and without keeping it: answers whether PayLater
   * accepts these credentials right now (an admin's "Test connection"). Throws the typed error.
   */
  async probe(): Promise<void> {
    await requestToken(this.config, this.deps)
  }

  /** Drops the token a call was refused with; a newer token fetched meanwhile is kept. */
  invalidate(accessToken: string): void {
    if (this.cached?.accessToken === accessToken) {
      this.cached = null
    }
  }

  private async fetch(): Promise<string> {
    const issued = await withRetries(() => requestToken(this.config, this.deps), {
      maxAttempts: this.config.maxAttempts,
      sleep: this.deps.sleep,
      random: this.deps.random,
      onRetry: (error, attempt, delay) =>
        this.deps.logger.warn(
          `PayLater token: attempt ${attempt} failed (${(error as PayLaterError).code}); retrying in ${delay} ms`
        ),
    })
    this.cached = issued
    return issued.accessToken
  }
}
