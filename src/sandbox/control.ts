import { z } from "zod"
import { faultSchema, webhookFaultSchema } from "./faults"
import { json, type Reply } from "./http"
import { SandboxActionError } from "./orders"
import type { PayLaterSandbox } from "./types"

/**
 * `/__sandbox/*`: the programmatic API over HTTP, for tests in other processes (the demo store,
 * integration tests, curl). No authentication: the sandbox binds to 127.0.0.1 by default and is a
 * development tool, never a production service.
 */

export const CONTROL_PREFIX = "/__sandbox"

const clockSchema = z.union([
  z.object({ now: z.union([z.number().int(), z.iso.datetime({ offset: true })]) }),
  z.object({ advanceMs: z.number().int() }),
])

const webhookUrlSchema = z.object({ url: z.url({ protocol: /^https?$/ }).nullable() })

const sendSchema = z.object({
  orderId: z.string().min(1),
  status: z.enum(["success", "failed", "pending"]),
  comments: z.string().optional(),
  forged: z.boolean().optional(),
  body: z.record(z.string(), z.unknown()).optional(),
  timestamp: z.number().int().nonnegative().optional(),
  paylaterRef: z.string().min(1).optional(),
})

const declineSchema = z.object({ final: z.boolean().optional() })

function parse<T>(schema: z.ZodType<T>, body: unknown): { ok: true; value: T } | { ok: false; reply: Reply } {
  const result = schema.safeParse(body ?? {})
  if (result.success) return { ok: true, value: result.data }
  return { ok: false, reply: json(400, { error: "Invalid control request", details: z.prettifyError(result.error) }) }
}

function clockBody(sandbox: PayLaterSandbox) {
  const now = sandbox.now()
  return { now, iso: new Date(now).toISOString(), offsetMs: now - Date.now() }
}

/** One element or an array of them. */
function many<T>(schema: z.ZodType<T>) {
  return z.union([schema, z.array(schema)])
}

export async function handleControl(
  sandbox: PayLaterSandbox,
  method: string,
  subpath: string,
  body: unknown
): Promise<Reply> {
  const parts = subpath.split("/").filter(Boolean).map(decodeURIComponent)
  const route = `${method} ${parts[0] ?? ""}`
  try {
    switch (route) {
      case "POST reset":
        sandbox.reset()
        return json(200, { ok: true })
      case "GET clock":
        return json(200, clockBody(sandbox))
      case "POST clock": {
        const p = parse(clockSchema, body)
        if (!p.ok) return p.reply
        if ("advanceMs" in p.value) sandbox.advanceClock(p.value.advanceMs)
        else sandbox.setClock(typeof p.value.now === "number" ? p.value.now : Date.parse(p.value.now))
        return json(200, clockBody(sandbox))
      }
      case "GET faults":
        return json(200, sandbox.listFaults())
      case "POST faults": {
        const p = parse(many(faultSchema), body)
        if (!p.ok) return p.reply
        for (const f of Array.isArray(p.value) ? p.value : [p.value]) sandbox.fault(f)
        return json(200, sandbox.listFaults())
      }
      case "DELETE faults":
        sandbox.clearFaults()
        return json(200, { ok: true })
      case "POST webhook-faults": {
        const p = parse(many(webhookFaultSchema), body)
        if (!p.ok) return p.reply
        for (const f of Array.isArray(p.value) ? p.value : [p.value]) sandbox.webhookFault(f)
        return json(200, sandbox.listFaults())
      }
      case "POST webhook-url": {
        const p = parse(webhookUrlSchema, body)
        if (!p.ok) return p.reply
        sandbox.setWebhookUrl(p.value.url)
        return json(200, { webhookUrl: sandbox.options.webhookUrl })
      }
      case "POST webhooks": {
        if (parts[1] !== "send") break
        const p = parse(sendSchema, body)
        if (!p.ok) return p.reply
        return json(200, await sandbox.sendWebhook(p.value))
      }
      case "GET orders": {
        if (parts[1] === undefined) return json(200, sandbox.orders())
        const order = sandbox.order(parts[1])
        return order ? json(200, order) : json(404, { error: `No order ${parts[1]}` })
      }
      case "GET requests":
        return json(200, sandbox.requests())
      case "GET deliveries":
        return json(200, sandbox.deliveries())
      case "POST links": {
        const [, orderId, action] = parts
        if (!orderId) break
        if (action === "open") sandbox.openLink(orderId)
        else if (action === "approve") await sandbox.approveLink(orderId)
        else if (action === "abandon") sandbox.abandonLink(orderId)
        else if (action === "decline") {
          const p = parse(declineSchema, body)
          if (!p.ok) return p.reply
          await sandbox.declineLink(orderId, p.value)
        } else break
        return json(200, sandbox.order(orderId))
      }
      case "POST rtp": {
        const [, reference, action] = parts
        if (!reference) break
        if (action === "approve") await sandbox.approveRequest(reference)
        else if (action === "decline") await sandbox.declineRequest(reference)
        else break
        return json(200, sandbox.order(reference))
      }
    }
  } catch (e) {
    if (e instanceof SandboxActionError) {
      return json(e.httpStatus, { error: e.message, code: e.code })
    }
    throw e
  }
  return json(404, { error: `Unknown control route ${method} ${CONTROL_PREFIX}/${parts.join("/")}` })
}
