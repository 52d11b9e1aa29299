import { timingSafeEqual } from "node:crypto"
import type { IncomingHttpHeaders } from "node:http"
import type { SandboxContext } from "./context"
import { json, parseForm, type Reply } from "./http"
import { newUuid, randomToken } from "./ids"

export const TOKEN_PATH = "/auth/realms/api/protocol/openid-connect/token"

// Keycloak's default for refresh tokens of a confidential client.
const REFRESH_LIFETIME_SECONDS = 1800

const INVALID_CLIENT = {
  error: "invalid_client",
  error_description: "Invalid client or Invalid client credentials",
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8")
  const y = Buffer.from(b, "utf8")
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Keycloak accepts client credentials in the form (client_secret_post) or as HTTP Basic. */
function clientCredentials(form: Record<string, string>, headers: IncomingHttpHeaders): { id?: string; secret?: string } {
  const auth = headers.authorization
  if (auth && /^basic /i.test(auth)) {
    const decoded = Buffer.from(auth.slice(6).trim(), "base64").toString("utf8")
    const colon = decoded.indexOf(":")
    if (colon > 0) {
      try {
        return {
          id: decodeURIComponent(decoded.slice(0, colon)),
          secret: decodeURIComponent(decoded.slice(colon + 1)),
        }
      } catch {
        return {}
      }
    }
  }
  return { id: form.client_id, secret: form.client_secret }
}

/** Token call body as recorded: never the secret. */
export function redactTokenForm(raw: string): Record<string, string> {
  const form = parseForm(raw)
  const kept: Record<string, string> = {}
  if (form.grant_type !== undefined) kept.grant_type = form.grant_type
  if (form.client_id !== undefined) kept.client_id = form.client_id
  return kept
}

export function handleToken(ctx: SandboxContext, raw: string, headers: IncomingHttpHeaders): Reply {
  const form = parseForm(raw)
  const grant = form.grant_type
  if (!grant) {
    return json(400, { error: "invalid_request", error_description: "Missing form parameter: grant_type" })
  }
  const { id, secret } = clientCredentials(form, headers)
  const { clientId, clientSecret } = ctx.options
  if (!id || secret === undefined || !sameText(id, clientId) || !sameText(secret, clientSecret)) {
    return json(401, INVALID_CLIENT)
  }

  const now = ctx.clock.now()
  if (grant === "refresh_token") {
    const entry = form.refresh_token ? ctx.store.refreshTokens.get(form.refresh_token) : undefined
    if (!entry || entry.expiresAt <= now || entry.clientId !== id) {
      return json(400, { error: "invalid_grant", error_description: "Invalid refresh token" })
    }
    ctx.store.refreshTokens.delete(form.refresh_token)
  } else if (grant !== "client_credentials") {
    return json(400, { error: "unsupported_grant_type", error_description: "Unsupported grant_type" })
  }

  const lifetime = ctx.options.tokenLifetimeSeconds
  const accessToken = randomToken()
  const refreshToken = randomToken()
  ctx.store.accessTokens.set(accessToken, { clientId: id, expiresAt: now + lifetime * 1000 })
  ctx.store.refreshTokens.set(refreshToken, {
    clientId: id,
    expiresAt: now + REFRESH_LIFETIME_SECONDS * 1000,
  })
  return json(200, {
    access_token: accessToken,
    expires_in: lifetime,
    refresh_expires_in: REFRESH_LIFETIME_SECONDS,
    refresh_token: refreshToken,
    token_type: "Bearer",
    "not-before-policy": 0,
    session_state: newUuid(),
    scope: "profile email",
  })
}

/** null when the bearer is valid; otherwise PayLater's answer for a missing or bad key. */
export function requireBearer(ctx: SandboxContext, headers: IncomingHttpHeaders): Reply | null {
  const auth = headers.authorization ?? ""
  const match = /^bearer\s+(\S+)\s*$/i.exec(auth)
  const entry = match ? ctx.store.accessTokens.get(match[1]) : undefined
  if (!entry || entry.expiresAt <= ctx.clock.now()) {
    if (match && entry) ctx.store.accessTokens.delete(match[1])
    return json(401, { error: "Invalid API Key" })
  }
  return null
}
