import type { IncomingMessage, ServerResponse } from "node:http"
import type { SandboxContext } from "./context"
import { CONTROL_PREFIX, handleControl } from "./control"
import { DEFAULT_SLOW_MS, errorFaultReply, garbageReply } from "./faults"
import {
  BodyTooLargeError,
  html,
  json,
  parseForm,
  parseJsonObject,
  queryObject,
  readBody,
  writeReply,
  type Reply,
} from "./http"
import { handleCreateLink, handlePaylinkDecision, handlePaylinkPage } from "./link"
import { indexPage, messagePage } from "./pages"
import { handleRefund } from "./refund"
import { handleAppDecision, handleAppPage, handleRequestToPay } from "./rtp"
import { handleShopper } from "./shopper"
import { handleStatus } from "./status"
import { TOKEN_PATH, handleToken, redactTokenForm, requireBearer } from "./token"
import type { FaultEndpoint, FaultSpec, PayLaterSandbox, RequestEndpoint, RequestRecord } from "./types"

export const API_BASE_PATH = "/api/paylater/merchant-portal/v2/web-checkout"

type ApiEndpoint = Exclude<FaultEndpoint, "*">

interface Route {
  endpoint: RequestEndpoint
  /** Only the merchant-facing calls can be faulted; pages and the control API never are. */
  faultable: boolean
  run: (raw: string) => Reply
  /** What the request record keeps of the body (never a secret). */
  recordBody?: (raw: string) => unknown
}

const API_ROUTES = new Map<string, { method: string; endpoint: ApiEndpoint }>([
  ["", { method: "POST", endpoint: "link" }],
  ["/request-to-pay", { method: "POST", endpoint: "rtp" }],
  ["/status", { method: "GET", endpoint: "status" }],
  ["/refund", { method: "POST", endpoint: "refund" }],
  ["/shopper", { method: "GET", endpoint: "shopper" }],
])

function jsonRecordBody(raw: string): unknown {
  const parsed = parseJsonObject(raw)
  return parsed.ok ? parsed.value : raw === "" ? undefined : raw.slice(0, 1024)
}

function malformed(endpoint: ApiEndpoint): Reply {
  if (endpoint === "rtp") {
    return json(400, { status: "FAILED", message: "Malformed JSON request", http_code: 400, error_reference: "RTP-400-VALIDATION" })
  }
  return json(400, { error: "Malformed JSON request" })
}

function apiRoute(ctx: SandboxContext, req: IncomingMessage, url: URL, sub: string): Route {
  const def = API_ROUTES.get(sub)
  if (!def) return { endpoint: "unknown", faultable: false, run: () => json(404, { error: "Not Found" }) }
  if (req.method !== def.method) {
    return {
      endpoint: def.endpoint,
      faultable: false,
      run: () => ({ status: 405, json: { error: "Method Not Allowed" }, headers: { allow: def.method } }),
    }
  }
  const run = (raw: string): Reply => {
    const denied = requireBearer(ctx, req.headers)
    if (denied) return denied
    if (def.method === "GET") {
      return def.endpoint === "status" ? handleStatus(ctx, url.searchParams) : handleShopper(ctx, url.searchParams)
    }
    const body = parseJsonObject(raw)
    if (!body.ok) return malformed(def.endpoint)
    if (def.endpoint === "link") return handleCreateLink(ctx, body.value)
    if (def.endpoint === "rtp") return handleRequestToPay(ctx, body.value)
    return handleRefund(ctx, body.value)
  }
  return { endpoint: def.endpoint, faultable: true, run, recordBody: def.method === "POST" ? jsonRecordBody : undefined }
}

function route(ctx: SandboxContext, req: IncomingMessage, url: URL, path: string): Route {
  const method = req.method ?? "GET"
  if (path === TOKEN_PATH) {
    if (method !== "POST") {
      return { endpoint: "token", faultable: false, run: () => ({ status: 405, json: { error: "HTTP 405 Method Not Allowed" }, headers: { allow: "POST" } }) }
    }
    return { endpoint: "token", faultable: true, run: (raw) => handleToken(ctx, raw, req.headers), recordBody: redactTokenForm }
  }
  if (path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`)) {
    return apiRoute(ctx, req, url, path.slice(API_BASE_PATH.length))
  }

  const paylink = /^\/paylink\/([^/]+)(\/decision)?$/.exec(path)
  if (paylink) {
    const uuid = decodeURIComponent(paylink[1])
    if (!paylink[2] && method === "GET") {
      return { endpoint: "page", faultable: false, run: () => handlePaylinkPage(ctx, uuid, url.searchParams) }
    }
    if (paylink[2] && method === "POST") {
      return {
        endpoint: "page",
        faultable: false,
        run: (raw) => handlePaylinkDecision(ctx, uuid, url.searchParams, parseForm(raw)),
        recordBody: parseForm,
      }
    }
  }
  if (path === "/app" && method === "GET") {
    return { endpoint: "app", faultable: false, run: () => handleAppPage(ctx, url.searchParams) }
  }
  const app = /^\/app\/requests\/([^/]+)\/(approve|decline)$/.exec(path)
  if (app && method === "POST") {
    return { endpoint: "app", faultable: false, run: () => handleAppDecision(ctx, decodeURIComponent(app[1]), app[2]) }
  }
  if (path === "/" && method === "GET") {
    const base = ctx.options.publicUrl
    return {
      endpoint: "page",
      faultable: false,
      run: () => html(200, indexPage(base, `${base}${API_BASE_PATH}`, `${base}${TOKEN_PATH}`, ctx.options.shoppers)),
    }
  }
  return {
    endpoint: "unknown",
    faultable: false,
    run: () => (path.startsWith("/api/") ? json(404, { error: "Not Found" }) : html(404, messagePage("Not found", "Nothing lives at this address."))),
  }
}

export function createRequestHandler(ctx: SandboxContext, sandbox: PayLaterSandbox) {
  const delay = (ms: number) => new Promise<void>((resolve) => ctx.timers.after(ms, resolve))

  async function control(req: IncomingMessage, method: string, path: string): Promise<Reply> {
    const raw = await readBody(req)
    let body: unknown = {}
    if (raw.trim() !== "") {
      try {
        body = JSON.parse(raw)
      } catch {
        return json(400, { error: "Control requests take a JSON body" })
      }
    }
    return handleControl(sandbox, method, path.slice(CONTROL_PREFIX.length), body)
  }

  /** Runs the route under its fault, if any; null = hold the request unanswered. */
  async function answer(r: Route, raw: string, fault: FaultSpec | null): Promise<Reply | null> {
    switch (fault?.mode) {
      case "timeout":
        if (fault.commit) r.run(raw)
        return null
      case "slow":
        await delay(fault.delayMs ?? DEFAULT_SLOW_MS)
        return r.run(raw)
      case "error":
        if (fault.commit) r.run(raw)
        return errorFaultReply(fault)
      case "garbage":
        if (fault.commit) r.run(raw)
        return garbageReply()
      default:
        return r.run(raw)
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, record: { current?: RequestRecord }): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sandbox.invalid")
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname
    const method = req.method ?? "GET"

    if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
      writeReply(res, await control(req, method, path))
      return
    }

    const r = route(ctx, req, url, path)
    const rec: RequestRecord = {
      id: ctx.store.nextId(),
      time: ctx.clock.now(),
      method,
      path,
      query: queryObject(url.searchParams),
      endpoint: r.endpoint,
      status: null,
    }
    record.current = rec
    ctx.store.requests.push(rec)

    const raw = await readBody(req)
    const kept = r.recordBody?.(raw)
    if (kept !== undefined) rec.body = kept

    const fault = r.faultable ? ctx.faults.take(r.endpoint as ApiEndpoint) : null
    if (fault) {
      rec.fault = fault.mode
      ctx.log(`${method} ${path}: injecting ${fault.mode} fault`)
    }
    // Hold a timed-out request without answering: the client gives up, or stop() destroys it.
    const reply = await answer(r, raw, fault)
    if (reply === null) return
    rec.status = reply.status
    writeReply(res, reply)
    ctx.log(`${method} ${path} → ${reply.status}`)
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const record: { current?: RequestRecord } = {}
    handle(req, res, record).catch((e: unknown) => {
      const reply =
        e instanceof BodyTooLargeError
          ? json(413, { error: "Request body too large" })
          : json(500, { error: "Internal sandbox error" })
      if (!(e instanceof BodyTooLargeError)) {
        ctx.log(`internal error on ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}`)
      }
      if (record.current) record.current.status = reply.status
      writeReply(res, reply)
    })
  }
}
