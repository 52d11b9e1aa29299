/**
 * What a merchant can see of PayLater payments: Settings → PayLater's attention list (the admin
 * API its page reads) and, on PayLater's side, the sandbox's record of refunds per PayLater order.
 */
import type { AxiosInstance } from "axios"
import type { AdminAuth } from "../../helpers/store-client"
import type { SandboxHandle } from "../../helpers/sandbox"
import { eventually } from "../paylater-link/ledger"

export type AttentionItem = Record<string, any>

const keep = { validateStatus: () => true }

export function merchantView(api: AxiosInstance, admin: () => AdminAuth, paylater: SandboxHandle) {
  async function attention(status: "open" | "resolved" | "all" = "open"): Promise<AttentionItem[]> {
    const res = await api.get(`/admin/paylater/attention?status=${status}`, { ...admin(), ...keep })
    if (res.status !== 200) throw new Error(`attention list answered ${res.status}: ${JSON.stringify(res.data)}`)
    return res.data.attention
  }
  return {
    attention,
    /** The open items about one PayLater order id (a link's or a request's). */
    async itemsFor(paylaterOrderId: string, status: "open" | "resolved" | "all" = "open") {
      return (await attention(status)).filter((i) => i.paylater_order_id === paylaterOrderId)
    },
    /**
     * Waits until an open item names this PayLater order id. Fails with the whole open list when
     * none does: the payment was not found.
     */
    async listed(paylaterOrderId: string, timeoutMs = 20_000): Promise<AttentionItem> {
      const items = await eventually(attention, (all) => all.some((i) => i.paylater_order_id === paylaterOrderId), timeoutMs).catch((e: Error) => {
        throw new Error(`PayLater order ${paylaterOrderId} is not on Settings → PayLater: ${e.message}`)
      })
      return items.find((i) => i.paylater_order_id === paylaterOrderId)!
    },
    /** Refunds PayLater itself holds for the order (what the shopper gets back). */
    refundsAtPayLater: (paylaterOrderId: string) => paylater().order(paylaterOrderId)?.refunds ?? [],
    refundFromList: (itemId: string) => api.post(`/admin/paylater/attention/${itemId}/refund`, {}, { ...admin(), ...keep }),
  }
}
