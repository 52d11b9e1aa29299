import { paidAtUpdate } from "../services/attempts"

const T1 = new Date("2026-11-10T09:03:00Z")
const T2 = new Date("2026-11-12T08:00:00Z")

describe("paid_at is written once, when the row first turns paid", () => {
  it("is set by the update that turns a row paid", () => {
    expect(paidAtUpdate({ state: "open", paid_at: null, last_status_at: null }, "paid", T1)).toEqual({ paid_at: T1 })
    // A later paid wins over a decline or an expiry (the money moved): that is when it was paid.
    expect(paidAtUpdate({ state: "expired", paid_at: null, last_status_at: T1 }, "paid", T2)).toEqual({ paid_at: T2 })
  })

  it("is never moved by PayLater being asked again", () => {
    expect(paidAtUpdate({ state: "paid", paid_at: T1, last_status_at: T1 }, "paid", T2)).toEqual({})
  })

  it("is not written for a row that is not paid", () => {
    expect(paidAtUpdate({ state: "open", paid_at: null, last_status_at: null }, "declined", T1)).toEqual({})
    expect(paidAtUpdate({ state: "starting", paid_at: null, last_status_at: null }, "open", T1)).toEqual({})
  })

  it("takes the last status time before the update for a row paid without it (written by an older version)", () => {
    expect(paidAtUpdate({ state: "paid", paid_at: null, last_status_at: T1 }, "paid", T2)).toEqual({ paid_at: T1 })
  })
})
