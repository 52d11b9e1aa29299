import type { AttemptRecord } from "../../modules/paylater-ledger/ledger-port"
import type { Owner } from "../../modules/paylater-ledger/whose-money"
import type { PayLaterSessionContext } from "../../medusa-records/session"
import type { PlacedOrder } from "../../medusa-effects/finish-order"
import type { RowAnswer } from "../ask-paylater"
import type { CompletionOutcome } from "../completion"
import type { SettlementPorts } from "../ports"
import { settleWith, type PayLaterPaymentSettledData, type Settlement, type SettleInput } from "../settle"

const NOW = new Date("2026-05-01T12:00:00.000Z")

function attempt(extra: Partial<AttemptRecord> = {}): AttemptRecord {
  return {
    paylater_order_id: "payses_1",
    session_id: "payses_1",
    kind: "link",
    state: "open",
    expires_at: new Date(NOW.getTime() + 10 * 60_000),
    order_id: null,
    payment_id: null,
    payment_collection_id: "paycol_1",
    cart_id: "cart_1",
    provider_id: "pp_paylater_paylater",
    superseded_by: null,
    ...extra,
  } as AttemptRecord
}

function session(extra: Partial<PayLaterSessionContext> = {}): PayLaterSessionContext {
  return {
    session_id: "payses_1",
    provider_id: "pp_paylater_paylater",
    session_status: "pending",
    payment_collection_id: "paycol_1",
    cart_id: "cart_1",
    order_id: null,
    for_order: false,
    attempt: attempt(),
    collection_session_ids: ["payses_1"],
    ...extra,
  }
}

interface World {
  named?: AttemptRecord | null
  session?: PayLaterSessionContext | null
  /** What the session looks like after a refused authorization. */
  afterRefusal?: PayLaterSessionContext
  /** PayLater's answer to settlement's question, as recorded on the row. */
  ask?: RowAnswer
  /** Medusa's authorization (answered from the row): the payment it created (null: refused). */
  authorize?: { payment_id: string | null; authorized_for?: string | null }
  completion?: CompletionOutcome
  /** The session as read again after a failed completion (Medusa's rollback: null when it deleted it); default the same session. */
  afterFailedCompletion?: PayLaterSessionContext | null
  /** The money plan's fact: some of the attempt's money went back (or may have). */
  givenBack?: boolean
  owner?: Owner
  collectionHoldsNoPayment?: boolean
  /** finishPlacedOrder's answer: the order read before the cart lock is still the cart's. */
  orderStillPlaced?: boolean
  /** undoUnplacedOrder's answer: the cart's order was a failed completion's leftover, rolled back. */
  leftoverOrder?: boolean
  lockBusy?: boolean
  /** untilMedusaCreated's answer: Medusa's create of the session wrote the provider's answer in time. */
  createdInTime?: boolean
  slotFree?: boolean
  failInside?: Error
}

const paidRow = (extra: Partial<AttemptRecord> = {}) => attempt({ state: "paid", ...extra })
const heldRow = () => paidRow({ order_id: "order_1", payment_id: "pay_1" })
const status = (code: 0 | 1 | 2 | 3) => ({ code, state: (["not_initiated", "pending", "success", "failed"] as const)[code], message: "", payLaterOrderId: null, merchantReference: null })
const paidAnswer = (): RowAnswer => ({ kind: "answered", status: status(2), row: paidRow() })

function fake(world: World) {
  const calls: string[] = []
  const announced: PayLaterPaymentSettledData[] = []
  const detached: Array<{ row: AttemptRecord; input: Partial<SettleInput> }> = []
  const links: Array<Record<string, unknown>> = []
  const warnings: string[] = []
  const finished: PlacedOrder[] = []
  const asked: Array<object | null> = []
  /** The money plan's reads before a completion (kept out of `calls`: the orders above are Medusa's effects). */
  const givenBackReads: string[] = []
  const call = (name: string) => calls.push(name)
  let completionFailed = false
  /** The collection's live sessions, as Medusa's completion would find them. */
  let sessions = world.session?.collection_session_ids ?? [world.session?.session_id ?? "payses_1"]
  const ports: SettlementPorts = {
    now: () => NOW,
    findAttempt: async () => (call("findAttempt"), world.named ?? null),
    currentAttemptOf: async () => (call("currentAttemptOf"), world.session?.attempt ?? null),
    linkAttempt: async (_id, l) => void (call("linkAttempt"), links.push(l as Record<string, unknown>)),
    readSession: async () => {
      call("readSession")
      if (world.failInside) throw world.failInside
      return world.session ?? null
    },
    untilMedusaCreated: async () => (call("untilMedusaCreated"), world.createdInTime ?? true),
    rereadSession: async (context) => {
      call("rereadSession")
      if (completionFailed && world.afterFailedCompletion !== undefined) return world.afterFailedCompletion ?? { ...context, session_gone: true }
      return world.afterRefusal ?? context
    },
    paymentIdOfAttempt: async () => (call("paymentIdOfAttempt"), "pay_medusa"),
    collectionHoldsNoPayment: async () => (call("collectionHoldsNoPayment"), world.collectionHoldsNoPayment ?? false),
    askPayLater: async (_row, _signal, l) => (call("askPayLater"), asked.push(l ?? null), world.ask ?? paidAnswer()),
    authorize: async (context, _signal, dropOthers) => {
      call("authorize")
      const authorized = { authorized_for: null, ...(world.authorize ?? { payment_id: "pay_1", authorized_for: "payses_1" }) }
      if (authorized.payment_id && dropOthers) sessions = [context.session_id]
      return authorized
    },
    recordOrderCaptures: async () => void call("recordOrderCaptures"),
    undoUnplacedOrder: async () => (call("undoUnplacedOrder"), world.leftoverOrder ?? false),
    finishPlacedOrder: async (_row, placed) => (call("finishPlacedOrder"), finished.push(placed), world.orderStillPlaced ?? true),
    moneyGivenBack: async (id) => (givenBackReads.push(id), world.givenBack ?? false),
    completeCart: async (context) => {
      call("completeCart")
      // Medusa's completion takes the collection's first processable session: another one left beside
      // the paid one may be the one it takes (the order would not hold this payment).
      const other = sessions.find((id) => id !== context.session_id)
      if (other) return { order_id: null, error: `completion took session ${other}` }
      const outcome = world.completion ?? { order_id: "order_1", held_by: heldRow() }
      completionFailed = outcome.order_id === null
      return outcome
    },
    whoseMoney: async () => (call("whoseMoney"), world.owner ?? ({ owner: "no_order" } as Owner)),
    recordOrderOwner: async () => (call("recordOrderOwner"), heldRow()),
    settleDetached: async (row, input) => {
      call("settleDetached")
      detached.push({ row, input })
      return { outcome: "detached", session: null, attempt: row, asked: true, changed: false } satisfies Settlement
    },
    underLock: async (_key, _seconds, busy, work) => {
      call("lock")
      return world.lockBusy ? busy() : work()
    },
    takeStatusSlot: async () => (call("takeStatusSlot"), world.slotFree ?? true),
    sleep: async () => undefined,
    announce: async (data) => void announced.push(data),
    warn: (message) => void warnings.push(message),
  }
  return { ports, calls, announced, detached, links, warnings, finished, asked, givenBackReads }
}

const notification = (reported: "success" | "pending" | "failed", order = "payses_1"): SettleInput => ({
  session_id: "payses_1",
  paylater_order_id: order,
  signal: "webhook",
  reported,
})

describe("settlement (behind ports)", () => {
  describe("a paid notification", () => {
    it("answers a duplicate from the row alone: one ledger read, no session read, no lock", async () => {
      const f = fake({ named: heldRow(), session: session() })
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "already_placed", order_id: "order_1", facts: { state: "paid", order_id: "order_1" } })
      expect(f.calls).toEqual(["findAttempt"])
      expect(f.announced).toEqual([{ session_id: "payses_1", signal: "webhook", outcome: "paid", order_id: "order_1" }])
    })

    it("settles a new one: one lock of ours, one session read, asked once, the payment recorded from the answer, then Medusa's own completion", async () => {
      const f = fake({ named: attempt(), session: session() })
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1", asked: true, changed: true, facts: { state: "paid", order_id: "order_1" } })
      expect(f.calls).toEqual(["findAttempt", "lock", "readSession", "askPayLater", "authorize", "linkAttempt", "completeCart"])
      expect(f.announced).toEqual([{ session_id: "payses_1", signal: "webhook", outcome: "paid", order_id: "order_1" }])
    })

    it("waits for Medusa's create of the session to write it before writing anything (its write would undo the record), then settles as read", async () => {
      const f = fake({ named: attempt(), session: session({ medusa_creating: true }) })
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1", asked: true, changed: true })
      expect(f.calls).toEqual(["findAttempt", "lock", "readSession", "untilMedusaCreated", "askPayLater", "authorize", "linkAttempt", "completeCart"])
    })

    it("leaves a session Medusa is still creating to the next signal when the create does not end in time: nothing asked or written", async () => {
      const f = fake({ named: attempt(), session: session({ medusa_creating: true }), createdInTime: false })
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "pending", asked: false, changed: false })
      expect(f.calls).toEqual(["findAttempt", "lock", "readSession", "untilMedusaCreated"])
      expect(f.links).toEqual([])
      // A notification that writes nothing does not wait.
      const pending = fake({ named: attempt(), session: session({ medusa_creating: true }) })
      await settleWith(pending.ports, notification("pending"))
      expect(pending.calls).not.toContain("untilMedusaCreated")
    })

    it("writes the row's new links with PayLater's answer, before anything is placed", async () => {
      const f = fake({ named: attempt({ cart_id: null }), session: session({ attempt: attempt({ cart_id: null }) }) })
      await settleWith(f.ports, notification("success"))
      expect(f.calls.slice(0, 5)).toEqual(["findAttempt", "lock", "readSession", "askPayLater", "authorize"])
      expect(f.asked[0]).toMatchObject({ cart_id: "cart_1", payment_id: null })
      // Afterwards only the payment Medusa recorded is linked.
      expect(f.links).toEqual([expect.objectContaining({ payment_id: "pay_1" })])
    })

    it("writes the row's new links on their own first when PayLater is not asked", async () => {
      const f = fake({ session: session({ attempt: attempt({ cart_id: null }) }), slotFree: false })
      await settleWith(f.ports, { session_id: "payses_1", signal: "poll", throttle_seconds: 5 })
      expect(f.calls).toEqual(["lock", "readSession", "takeStatusSlot", "linkAttempt"])
      expect(f.links[0]).toMatchObject({ cart_id: "cart_1" })
      const paid = fake({ session: session({ attempt: paidRow({ cart_id: null }) }) })
      await settleWith(paid.ports, { session_id: "payses_1", signal: "reconciliation" })
      expect(paid.calls.slice(0, 4)).toEqual(["lock", "readSession", "linkAttempt", "authorize"])
    })

    it("does not ask again about a row PayLater already said is paid: completes the cart", async () => {
      const f = fake({ session: session({ attempt: paidRow() }) })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "reconciliation" })
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1", asked: false, changed: true })
      expect(f.calls).toEqual(["lock", "readSession", "authorize", "linkAttempt", "completeCart"])
    })

    it("lists the payment as paid without an order when the cart cannot become one, has Medusa record the payment, and says so", async () => {
      const f = fake({ named: attempt(), session: session(), completion: { order_id: null, error: "out of stock" } })
      const result = await settleWith(f.ports, notification("success"))
      // The screens say "paid, not placed", as the return route does.
      // The paid session is still the cart's: the completion is tried again after its backoff (retrying).
      expect(result).toMatchObject({ outcome: "paid_without_order", cart_id: "cart_1", error: "out of stock", changed: true, retrying: true, facts: { state: "paid", order_id: null, completion_failed: true, completion_retrying: true } })
      expect(result.session?.session_status).toBe("authorized")
      // Recorded before the completion is tried, once.
      expect(f.calls.filter((c) => ["completeCart", "authorize"].includes(c))).toEqual(["authorize", "completeCart"])
      expect(f.links).toEqual([expect.objectContaining({ payment_id: "pay_1" })])
      expect(f.announced).toEqual([{ session_id: "payses_1", signal: "webhook", outcome: "paid_without_order", order_id: null }])
      expect(f.warnings).toHaveLength(1)
    })

    it("says the completion is tried again only while the paid session is live: not once Medusa's rollback deleted it, nor once a refund canceled it", async () => {
      const failing = { named: attempt(), session: session(), completion: { order_id: null, error: "out of stock" } as CompletionOutcome }
      const deleted = await settleWith(fake({ ...failing, afterFailedCompletion: null }).ports, notification("success"))
      expect(deleted).toMatchObject({ outcome: "paid_without_order", retrying: false, facts: { completion_failed: true, completion_retrying: false } })
      const canceled = await settleWith(fake({ ...failing, afterFailedCompletion: session({ session_status: "canceled" }) }).ports, notification("success"))
      expect(canceled).toMatchObject({ outcome: "paid_without_order", retrying: false, facts: { completion_retrying: false } })
      // Kept (an engine that gave the run up, a cart lock that stayed busy): tried again.
      const kept = await settleWith(fake({ ...failing, afterFailedCompletion: session({ session_status: "authorized" }) }).ports, notification("success"))
      expect(kept).toMatchObject({ outcome: "paid_without_order", retrying: true, facts: { completion_retrying: true } })
    })

    it("never completes a cart whose money went back (the money plan's decision): paid without an order, not tried, nobody warned", async () => {
      const f = fake({ session: session({ attempt: paidRow() }), givenBack: true })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "reconciliation" })
      // Never again: the screens stop saying a later try may place it.
      expect(result).toMatchObject({ outcome: "paid_without_order", error: "its payment is refunded (paid without an order)", retrying: false, facts: { completion_failed: true, completion_retrying: false } })
      expect(f.givenBackReads).toEqual(["payses_1"])
      expect(f.calls).not.toContain("completeCart")
      expect(f.warnings).toEqual([])
      // The same world with the money still PayLater's completes the cart.
      const kept = fake({ session: session({ attempt: paidRow() }), givenBack: false })
      expect(await settleWith(kept.ports, { session_id: "payses_1", signal: "reconciliation" })).toMatchObject({ outcome: "paid", order_id: "order_1" })
    })

    it("waits out the completion's backoff after a failure without reading the refunds or trying again", async () => {
      const backoff = { completion_tries: 2, completion_next_at: new Date(NOW.getTime() + 60_000), completion_error: "out of stock" }
      const f = fake({ session: session({ session_status: "authorized", attempt: paidRow({ payment_id: "pay_1", ...backoff }) }) })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "poll" })
      expect(result).toMatchObject({ outcome: "paid_without_order", error: "out of stock", changed: false, retrying: true, facts: { completion_failed: true, completion_retrying: true } })
      expect(f.givenBackReads).toEqual([])
      expect(f.calls).not.toContain("completeCart")
    })

    it("records the payment first when the cart has other sessions (they are dropped under the same cart lock), then completes", async () => {
      const f = fake({ named: attempt(), session: session({ collection_session_ids: ["payses_1", "payses_2"] }) })
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1", asked: true, changed: true })
      expect(f.calls).toEqual(["findAttempt", "lock", "readSession", "askPayLater", "authorize", "linkAttempt", "completeCart"])
    })

    it("records the payment first when an earlier answer closed the session (a declined card paid again on the same link), then completes", async () => {
      const f = fake({ named: attempt({ state: "declined" }), session: session({ session_status: "error", attempt: attempt({ state: "declined" }) }) })
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1", changed: true })
      expect(f.calls.indexOf("authorize")).toBeGreaterThan(-1)
      expect(f.calls.indexOf("authorize")).toBeLessThan(f.calls.indexOf("completeCart"))
    })

    it("neither completes nor records anything while the cart lock is busy: the row answers (still processing)", async () => {
      const f = fake({ named: attempt(), session: session({ collection_session_ids: ["payses_1", "payses_2"] }), authorize: { payment_id: null } })
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "pending", asked: true, facts: { state: "paid", order_id: null } })
      expect(f.calls).not.toContain("completeCart")
    })

    it("has Medusa record PayLater's failure on the session, and places nothing", async () => {
      const declined = attempt({ state: "declined", last_status_code: 3 })
      const f = fake({ named: attempt(), session: session(), ask: { kind: "answered", status: status(3), row: declined }, authorize: { payment_id: null } })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "return" })
      expect(result).toMatchObject({ outcome: "failed", reason: "declined", asked: true, changed: true })
      expect(f.calls.slice(-2)).toEqual(["askPayLater", "authorize"])
      expect(f.calls).not.toContain("completeCart")
    })

    it("a decline answered while the shopper's retry on the same link was paid and recorded by the storefront's own completion: paid, its order placed, never 'declined'", async () => {
      const declined = attempt({ state: "declined", last_status_code: 3 })
      const f = fake({
        named: attempt(),
        session: session(),
        ask: { kind: "answered", status: status(3), row: declined },
        // Medusa's authorization returns the payment its own completion recorded meanwhile; the row says paid now.
        afterRefusal: session({ session_status: "authorized", attempt: paidRow() }),
      })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "return" })
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1", asked: true, changed: true, facts: { state: "paid", order_id: "order_1" } })
      // Medusa's authorization is taken once: the payment it returned is the one linked.
      expect(f.calls).toEqual(["lock", "readSession", "askPayLater", "authorize", "rereadSession", "linkAttempt", "completeCart"])
      expect(f.links).toEqual([expect.objectContaining({ payment_id: "pay_1" })])
    })

    it("leaves Medusa alone on a pending answer", async () => {
      const f = fake({ session: session(), ask: { kind: "answered", status: status(1), row: attempt() } })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "poll" })
      expect(result).toMatchObject({ outcome: "pending", asked: true })
      expect(f.calls).not.toContain("authorize")
      expect(f.calls).not.toContain("completeCart")
    })

    it("settles the payment as extra when the order placed holds another payment", async () => {
      const f = fake({ named: attempt(), session: session(), completion: { order_id: "order_1", held_by: null }, owner: { owner: "extra" } as Owner })
      f.ports.findAttempt = async () => paidRow()
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1" })
      expect(f.detached).toEqual([{ row: paidRow(), input: expect.objectContaining({ reported: undefined, throttle_seconds: undefined }) }])
    })

    it("links the payment to the attempt Medusa authorized it for, when that is not the one read", async () => {
      // Medusa's own completion authorized the session for its first attempt; the row read is the second.
      const current = attempt({ paylater_order_id: "payses_1-2" })
      const f = fake({
        session: session({ attempt: current }),
        ask: { kind: "answered", status: status(2), row: paidRow({ paylater_order_id: "payses_1-2" }) },
        completion: { order_id: null, error: "out of stock" },
        authorize: { payment_id: "pay_1", authorized_for: "payses_1" },
      })
      f.ports.linkAttempt = async (id, l) => void f.links.push({ id, ...l })
      await settleWith(f.ports, { session_id: "payses_1", signal: "poll" })
      expect(f.links).toEqual([{ id: "payses_1", payment_id: "pay_1" }])
    })

    it("does not ask again whose money the order holds when completion recorded this attempt", async () => {
      const f = fake({ named: attempt(), session: session() })
      await settleWith(f.ports, notification("success"))
      expect(f.calls).not.toContain("whoseMoney")
      expect(f.detached).toEqual([])
    })

    it("settles from the row an attempt whose session was deleted before Medusa could record it", async () => {
      const gone = session({ session_gone: true, attempt: paidRow() })
      const f = fake({
        named: attempt(),
        session: session({ session_status: "pending" }),
        completion: { order_id: null, error: "cart changed" },
        authorize: { payment_id: null },
        afterRefusal: gone,
      })
      const result = await settleWith(f.ports, { ...notification("success"), throttle_seconds: 5 })
      expect(result.outcome).toBe("detached")
      expect(f.detached).toEqual([{ row: paidRow(), input: expect.objectContaining({ throttle_seconds: undefined }) }])
    })

    it("says PayLater is unavailable when it did not answer, and changes nothing", async () => {
      const f = fake({ named: attempt(), session: session(), ask: { kind: "unanswered" } })
      const result = await settleWith(f.ports, notification("success"))
      expect(result).toMatchObject({ outcome: "unavailable", asked: true, changed: false })
      expect(f.calls).not.toContain("completeCart")
    })

    it("settles a superseded attempt from its row, never through the live session", async () => {
      const named = attempt({ paylater_order_id: "payses_1", superseded_by: "payses_1-2" })
      const f = fake({ named, session: session({ attempt: attempt({ paylater_order_id: "payses_1-2" }) }) })
      const result = await settleWith(f.ports, notification("success"))
      expect(result.outcome).toBe("detached")
      expect(f.calls).not.toContain("authorize")
      expect(f.detached.map((d) => d.row.paylater_order_id)).toEqual(["payses_1"])
    })

    it("announces an error and lets the event bus retry when settlement throws", async () => {
      const f = fake({ named: attempt(), session: session(), failInside: new Error("database down") })
      await expect(settleWith(f.ports, notification("success"))).rejects.toThrow("database down")
      expect(f.announced).toEqual([{ session_id: "payses_1", signal: "webhook", outcome: "error", order_id: null }])
    })
  })

  describe("a notification's pending or failed", () => {
    it("is taken at its word: PayLater not asked, nothing authorized", async () => {
      for (const reported of ["pending", "failed"] as const) {
        const f = fake({ named: attempt(), session: session() })
        const result = await settleWith(f.ports, notification(reported))
        expect(result.outcome).toBe(reported === "failed" ? "failed" : "pending")
        expect(f.calls).not.toContain("authorize")
        expect(f.announced).toEqual([])
      }
    })

    it("never undoes a payment Medusa recorded", async () => {
      const f = fake({ named: paidRow(), session: session({ session_status: "authorized", cart_id: null, attempt: paidRow() }) })
      const result = await settleWith(f.ports, notification("failed"))
      expect(result).toMatchObject({ outcome: "paid" })
    })
  })

  describe("the shopper's screens", () => {
    const poll: SettleInput = { session_id: "payses_1", signal: "poll", throttle_seconds: 5 }

    it("answers from the row when the interval's question was asked already", async () => {
      const f = fake({ session: session(), slotFree: false })
      const result = await settleWith(f.ports, poll)
      expect(result).toMatchObject({ outcome: "pending", asked: false, facts: { state: "open" } })
      expect(f.calls).not.toContain("authorize")
    })

    it("answers from the records without acting while another signal settles the session", async () => {
      const f = fake({ session: session(), lockBusy: true })
      const result = await settleWith(f.ports, poll)
      expect(result.outcome).toBe("pending")
      expect(f.calls).toEqual(["lock", "readSession"])
    })

    it("while another signal settles a paid session whose completion failed (the rollback kept the session), says 'paid, not placed' as the return does, never 'processing'", async () => {
      const failed = { completion_tries: 1, completion_next_at: new Date(NOW.getTime() + 30_000), completion_error: "out of stock" }
      const f = fake({ session: session({ session_status: "authorized", attempt: paidRow({ payment_id: "pay_1", ...failed }) }), lockBusy: true })
      const result = await settleWith(f.ports, poll)
      expect(result).toMatchObject({ outcome: "pending", facts: { state: "paid", order_id: null, completion_failed: true, completion_retrying: true } })
      // No failure recorded yet (a completion under way): still processing.
      const first = fake({ session: session({ session_status: "authorized", attempt: paidRow({ payment_id: "pay_1" }) }), lockBusy: true })
      expect((await settleWith(first.ports, poll)).facts).toMatchObject({ state: "paid", order_id: null, completion_failed: false, completion_retrying: false })
      // Its money went back meanwhile (a refund cancels the session): final, never "tried again".
      const refunded = fake({ session: session({ session_status: "canceled", attempt: paidRow({ payment_id: "pay_1", ...failed }) }), lockBusy: true })
      expect((await settleWith(refunded.ports, poll)).facts).toMatchObject({ completion_failed: true, completion_retrying: false })
      // A later try placed it: the order wins over the failures recorded before.
      const placed = fake({ session: session({ session_status: "authorized", order_id: "order_1", attempt: paidRow({ payment_id: "pay_1", ...failed }) }), lockBusy: true })
      expect(await settleWith(placed.ports, poll)).toMatchObject({ outcome: "paid", order_id: "order_1", facts: { order_id: "order_1" } })
    })

    it("completes a cart Medusa recorded the payment of, without asking PayLater, and links that payment", async () => {
      const f = fake({ session: session({ session_status: "authorized", attempt: paidRow() }) })
      const result = await settleWith(f.ports, poll)
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1", asked: false })
      expect(f.calls).not.toContain("authorize")
      expect(f.links[0]).toMatchObject({ payment_id: "pay_medusa" })
    })

    it("settles a gone session's latest attempt from its row", async () => {
      const f = fake({ session: null })
      f.ports.currentAttemptOf = async () => paidRow()
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "return" })
      expect(result).toMatchObject({ outcome: "detached", facts: { state: "paid", order_id: null, completion_failed: true } })
      // No live session: its money never becomes this cart's order, nothing says it still might.
      expect(result.facts?.completion_retrying).toBeFalsy()
    })

    it("knows nothing of a session with no row", async () => {
      const f = fake({ session: null })
      f.ports.currentAttemptOf = async () => null
      expect(await settleWith(f.ports, { session_id: "payses_x", signal: "return" })).toMatchObject({ outcome: "unknown_session", facts: null })
    })
  })

  describe("a cart that is an order already", () => {
    it("authorizes onto the order a live session whose order holds no payment (a completion killed before its payment), finishing its records", async () => {
      const f = fake({ session: session({ order_id: "order_1" }), collectionHoldsNoPayment: true })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "reconciliation" })
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1" })
      expect(f.calls).toEqual(expect.arrayContaining(["authorize", "finishPlacedOrder", "recordOrderOwner"]))
      expect(f.calls.indexOf("finishPlacedOrder")).toBeLessThan(f.calls.indexOf("recordOrderOwner"))
      expect(f.finished).toEqual([{ order_id: "order_1", payment_collection_id: expect.any(String), payment_id: "pay_1", cart_id: "cart_1" }])
      expect(f.calls).not.toContain("completeCart")
    })

    it("rolls back a failed completion's leftover order (stock never reserved) and completes the cart with Medusa's checks: paid without an order when still sold out", async () => {
      const sold = "Not enough stock available for item iitem_1"
      const f = fake({ session: session({ order_id: "order_1", session_status: "authorized", attempt: paidRow({ payment_id: "pay_1" }) }), leftoverOrder: true, completion: { order_id: null, error: sold } })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "webhook", paylater_order_id: "payses_1", reported: "success" })
      expect(result).toMatchObject({ outcome: "paid_without_order", error: sold, facts: { state: "paid", order_id: null } })
      expect(f.calls.indexOf("undoUnplacedOrder")).toBeLessThan(f.calls.indexOf("completeCart"))
      expect(f.calls).not.toContain("whoseMoney")
      expect(f.calls).not.toContain("finishPlacedOrder")
    })

    it("completes the cart when the order read before the cart lock was deleted meanwhile (a completion that failed)", async () => {
      const f = fake({ session: session({ order_id: "order_1" }), collectionHoldsNoPayment: true, orderStillPlaced: false, completion: { order_id: "order_2", held_by: heldRow() } })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "reconciliation" })
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_2" })
      expect(f.calls).toContain("completeCart")
      expect(f.calls.indexOf("completeCart")).toBeGreaterThan(f.calls.indexOf("finishPlacedOrder"))
    })

    it("settles an attempt the order does not hold as the extra payment, never authorizing it", async () => {
      const f = fake({ session: session({ order_id: "order_1", attempt: paidRow() }), owner: { owner: "extra" } as Owner })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "return" })
      expect(result.outcome).toBe("detached")
      expect(f.calls).not.toContain("authorize")
    })

    it("answers paid with the order when the order holds this attempt's money", async () => {
      const f = fake({ session: session({ order_id: "order_1", attempt: heldRow() }), owner: { owner: "this_order", order_id: "order_1", payment_id: "pay_1", recorded: true, medusa_holds: true } as Owner })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "return" })
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_1", facts: { state: "paid", order_id: "order_1" } })
    })
  })

  describe("a point-of-sale payment", () => {
    it("heals the order's capture of a payment Medusa recorded", async () => {
      const f = fake({ session: session({ cart_id: null, order_id: "order_9", for_order: true, session_status: "captured", attempt: paidRow({ cart_id: null }) }) })
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "poll" })
      expect(result).toMatchObject({ outcome: "paid", order_id: "order_9" })
      expect(f.calls).toContain("recordOrderCaptures")
    })

    it("settles from its row a current request Medusa's payment is not for; the staff's screen still sees the order paid", async () => {
      // The request before it was approved and recorded while this one replaced it: the shopper may approve this one too.
      const replacing = attempt({ paylater_order_id: "payses_1-2", state: "open", cart_id: null })
      const world = () => fake({ session: session({ cart_id: null, order_id: "order_9", for_order: true, session_status: "authorized", attempt: replacing }) })
      const f = world()
      const result = await settleWith(f.ports, { session_id: "payses_1", signal: "reconciliation" })
      expect(result).toMatchObject({ outcome: "detached", asked: true })
      expect(f.detached.map((d) => d.row.paylater_order_id)).toEqual(["payses_1-2"])
      expect(f.calls).not.toContain("authorize")
      // The order's payment is not announced again for a question about another attempt.
      expect(f.announced).toEqual([])
      const polled = world()
      expect(await settleWith(polled.ports, { session_id: "payses_1", signal: "poll", throttle_seconds: 5 })).toMatchObject({ outcome: "paid", order_id: "order_9" })
      expect(polled.detached).toEqual([])
    })
  })
})
