import { isEngineRefusal } from "../../../../medusa-effects/abandoned-completion"
import { abandonedCompletionCleanup } from "../abandoned-completion-cleanup"

const REFUSAL = { type: "not_allowed", message: 'Updating Status from "ok" to "temp_failure" is not allowed.' }

/** Runs the middleware around a route that answers `status` with `body`; what left, once it has. */
async function answerThrough(finish: (...args: any[]) => Promise<boolean>, status: number, body: unknown) {
  const calls: Array<{ cartId: string }> = []
  const warnings: string[] = []
  const sent: { status?: number; body?: unknown } = {}
  let done!: () => void
  const finished = new Promise<void>((resolve) => (done = resolve))
  const res: any = {
    statusCode: 200,
    status(code: number) {
      this.statusCode = code
      sent.status = code
      return this
    },
    json(payload: unknown) {
      sent.status = this.statusCode
      sent.body = payload
      done()
      return this
    },
  }
  const req: any = {
    params: { id: "cart_1" },
    scope: { resolve: () => ({ warn: (line: string) => warnings.push(line) }) },
  }
  const middleware = abandonedCompletionCleanup(async (_container, cartId) => {
    calls.push({ cartId })
    return finish()
  })
  middleware(req, res, () => {
    res.status(status)
    res.json(body)
  })
  await finished
  return { sent, calls, warnings }
}

describe("Medusa's store completion when the workflow engine abandoned its run", () => {
  it("recognizes the engine's refusal of a step's state change, nothing else", () => {
    expect(isEngineRefusal(new Error(REFUSAL.message))).toBe(true)
    expect(isEngineRefusal('Updating State from "compensating" to "reverted" is not allowed.')).toBe(true)
    expect(isEngineRefusal(new Error("Some variant does not have the required inventory"))).toBe(false)
    expect(isEngineRefusal(undefined)).toBe(false)
  })

  it("its leftover order undone (the item sold out): the storefront is told the item is out of stock, never the engine's refusal", async () => {
    const { sent, calls } = await answerThrough(async () => true, 400, REFUSAL)
    expect(calls).toEqual([{ cartId: "cart_1" }])
    expect(sent).toEqual({ status: 400, body: { type: "not_allowed", message: "The cart could not be completed: an item in it is no longer in stock." } })
  })

  it("nothing left to undo, or the clean-up failing: a conflict the storefront may send again, the failure logged", async () => {
    const nothing = await answerThrough(async () => false, 400, REFUSAL)
    expect(nothing.sent).toEqual({ status: 409, body: { type: "conflict", message: "The cart's completion was interrupted before it finished; complete the cart again." } })
    const failing = await answerThrough(async () => {
      throw new Error("database gone")
    }, 400, REFUSAL)
    expect(failing.sent.status).toBe(409)
    expect(failing.warnings).toEqual([expect.stringContaining("database gone")])
  })

  it("every other answer passes untouched, with no clean-up", async () => {
    const soldOut = { type: "not_allowed", message: "Some variant does not have the required inventory" }
    const refused = await answerThrough(async () => true, 400, soldOut)
    expect(refused).toMatchObject({ sent: { status: 400, body: soldOut }, calls: [] })
    const placed = { type: "order", order: { id: "order_1" } }
    expect(await answerThrough(async () => true, 200, placed)).toMatchObject({ sent: { status: 200, body: placed }, calls: [] })
  })
})
