import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { harness, linkBody, type Harness } from "./helpers"

/** `stateFile`: a restarted sandbox still knows the payments made before (the demo restarts it). */
describe("sandbox: state file", () => {
  let dir: string
  let file: string
  const running: Harness[] = []

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "paylater-sandbox-state-"))
    file = path.join(dir, "nested", "sandbox.json")
  })
  afterEach(async () => {
    await Promise.all(running.splice(0).map((h) => h.sandbox.stop()))
    fs.rmSync(dir, { recursive: true, force: true })
  })

  async function start(): Promise<Harness> {
    const h = await harness({ stateFile: file, sweepIntervalMs: 3_600_000 })
    running.push(h)
    return h
  }

  it("keeps a paid link across a restart: status and refund still answer for it", async () => {
    const first = await start()
    const body = linkBody()
    expect((await (await first.api()).post("", body)).status).toBe(200)
    first.sandbox.openLink(body.order_id as string)
    await first.sandbox.approveLink(body.order_id as string)
    await first.sandbox.stop()
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ version: 1, orders: [{ orderId: body.order_id, status: 2 }] })

    const second = await start()
    const api = await second.api()
    const status = await api.get("/status", { params: { order_id: body.order_id } })
    expect(status.data).toMatchObject({ message: "success", status: 2, merchantReference: body.order_id })
    expect(second.sandbox.order(body.order_id as string)).toMatchObject({ status: 2, amount: "1000.00" })
    // A new link after the restart gets a fresh PayLater reference, not one reused from the file.
    const next = linkBody()
    expect((await api.post("", next)).status).toBe(200)
    const refs = second.sandbox.orders().map((o) => o.payLaterOrderId)
    expect(new Set(refs).size).toBe(2)
  })

  it("writes the file after each change made over HTTP, not only on stop", async () => {
    const h = await start()
    const body = linkBody()
    expect((await (await h.api()).post("", body)).status).toBe(200)
    expect(JSON.parse(fs.readFileSync(file, "utf8")).orders.map((o: { orderId: string }) => o.orderId)).toEqual([body.order_id])
  })

  it("refuses a file that is not a sandbox state file, naming it", async () => {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, JSON.stringify({ hello: "world" }))
    await expect(harness({ stateFile: file })).rejects.toThrow(file)
  })
})
