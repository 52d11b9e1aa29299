import { createHash, createHmac } from "node:crypto"
import { readFileSync } from "node:fs"
import path from "node:path"
import { prng } from "../../../../integration-tests/helpers/prng"
import {
  computeSignature,
  computeTxHash,
  signWebhook,
  timestampText,
  verifyWebhook,
  type WebhookStatus,
} from "../webhook"

const VECTORS_PATH = path.resolve(__dirname, "../../../../../shared/spec/webhook-vectors.json")

interface Vector {
  secret: string
  body: Record<string, unknown>
  valid: boolean
  why?: string
}

const vectors: Vector[] = JSON.parse(readFileSync(VECTORS_PATH, "utf8")).vectors

/** An independent reading of section 6, so the implementation is not checked against itself. */
function referenceSign(fields: Record<string, unknown>, secret: string): { txHash: string; signature: string } {
  const comments = fields.comments === undefined || fields.comments === null ? "" : String(fields.comments)
  const joined = [fields.merchantId, fields.orderId, fields.status, String(fields.timestamp), comments].join("")
  const txHash = createHash("md5").update(Buffer.from(joined.toUpperCase(), "utf8")).digest("hex")
  return { txHash, signature: createHmac("sha256", Buffer.from(secret, "utf8")).update(txHash).digest("hex") }
}

const SECRET = "whsec_unit_secret"

function signed(overrides: Partial<Parameters<typeof signWebhook>[0]> = {}): Record<string, unknown> {
  return {
    ...signWebhook(
      {
        merchantId: "138",
        orderId: "payses_01JD8Z3K4V5W6X7Y8Z9A0B1C2D",
        paylaterRef: "PL1746499849330726",
        status: "success",
        timestamp: 1746499849330,
        comments: "Paid in app",
        ...overrides,
      },
      SECRET
    ),
  }
}

describe("shared vectors (webhook-vectors.json)", () => {
  it("holds both valid and invalid vectors", () => {
    expect(vectors.filter((v) => v.valid).length).toBeGreaterThan(0)
    expect(vectors.filter((v) => !v.valid).length).toBeGreaterThan(0)
  })

  it.each(vectors.filter((v) => v.valid).map((v, i) => [i, v] as const))("valid vector %i verifies", (_i, vector) => {
    const result = verifyWebhook(vector.body, vector.secret)
    expect(result).toEqual({
      ok: true,
      webhook: {
        merchantId: vector.body.merchantId,
        orderId: vector.body.orderId,
        paylaterRef: vector.body.paylaterRef ?? null,
        status: vector.body.status,
        timestamp: String(vector.body.timestamp),
        comments: vector.body.comments ?? null,
      },
    })
    expect(computeTxHash(vector.body as never)).toBe(vector.body.txHash)
    expect(referenceSign(vector.body, vector.secret).signature).toBe(vector.body.signature)
  })

  it.each(vectors.filter((v) => !v.valid).map((v) => [v.why ?? "invalid", v] as const))(
    "invalid vector (%s) is rejected",
    (_why, vector) => {
      const result = verifyWebhook(vector.body, vector.secret)
      expect(result.ok).toBe(false)
    }
  )

  it("a valid vector with its timestamp as a numeric string still verifies", () => {
    const vector = vectors.find((v) => v.valid && typeof v.body.timestamp === "number")!
    const body = { ...vector.body, timestamp: String(vector.body.timestamp) }
    expect(verifyWebhook(body, vector.secret)).toMatchObject({ ok: true, webhook: { timestamp: body.timestamp } })
  })

  it("an upper-case signature is accepted", () => {
    const vector = vectors.find((v) => v.valid)!
    const body = { ...vector.body, signature: String(vector.body.signature).toUpperCase() }
    expect(verifyWebhook(body, vector.secret).ok).toBe(true)
  })

  it("an upper-case txHash is accepted when the signature covers it as sent", () => {
    const vector = vectors.find((v) => v.valid)!
    const txHash = String(vector.body.txHash).toUpperCase()
    const signature = createHmac("sha256", vector.secret).update(txHash).digest("hex").toUpperCase()
    expect(verifyWebhook({ ...vector.body, txHash, signature }, vector.secret).ok).toBe(true)
    // Section 6 signs the received txHash text, so its case is part of what the HMAC covers.
    expect(verifyWebhook({ ...vector.body, txHash }, vector.secret)).toMatchObject({ reason: "signature_mismatch" })
  })

  it("a vector without comments verifies with comments null too", () => {
    const vector = vectors.find((v) => v.valid && v.body.comments === undefined)!
    expect(verifyWebhook({ ...vector.body, comments: null }, vector.secret).ok).toBe(true)
    expect(verifyWebhook({ ...vector.body, comments: "" }, vector.secret).ok).toBe(true)
  })
})

describe("signWebhook / verifyWebhook", () => {
  it("round-trips and agrees with an independent implementation", () => {
    const body = signed()
    expect(referenceSign(body, SECRET)).toEqual({ txHash: body.txHash, signature: body.signature })
    expect(verifyWebhook(body, SECRET).ok).toBe(true)
  })

  it("omits comments when there are none and hashes them as the empty string", () => {
    const body = signed({ comments: null })
    expect(body).not.toHaveProperty("comments")
    expect(referenceSign({ ...body, comments: "" }, SECRET).txHash).toBe(body.txHash)
  })

  it("valid hash with a signature from another secret → signature_mismatch", () => {
    const body = signed()
    expect(verifyWebhook(body, "another-secret")).toMatchObject({ ok: false, reason: "signature_mismatch" })
  })

  it("a tampered field with the old hash → hash_mismatch", () => {
    expect(verifyWebhook({ ...signed(), status: "failed" }, SECRET)).toMatchObject({ ok: false, reason: "hash_mismatch" })
    expect(verifyWebhook({ ...signed(), orderId: "payses_other" }, SECRET)).toMatchObject({ reason: "hash_mismatch" })
    expect(verifyWebhook({ ...signed(), timestamp: 1746499849331 }, SECRET)).toMatchObject({ reason: "hash_mismatch" })
    expect(verifyWebhook({ ...signed(), comments: "Paid in app!" }, SECRET)).toMatchObject({ reason: "hash_mismatch" })
  })

  it("a tampered field with a recomputed MD5 (anyone can) → signature_mismatch", () => {
    const body: Record<string, unknown> = { ...signed(), status: "failed" }
    body.txHash = computeTxHash(body as never)
    expect(verifyWebhook(body, SECRET)).toMatchObject({ ok: false, reason: "signature_mismatch" })
  })

  it("verifies unicode fields", () => {
    const body = signed({ orderId: "طلب-١٢٣", comments: "Café ☕ — شكراً" })
    expect(verifyWebhook(body, SECRET)).toMatchObject({ ok: true, webhook: { orderId: "طلب-١٢٣" } })
    expect(verifyWebhook({ ...body, comments: "Café ☕ — شكرا" }, SECRET).ok).toBe(false)
  })

  it("answers 403-worthy reasons for merchant mismatch", () => {
    const body = signed()
    expect(verifyWebhook(body, SECRET, { expectedMerchantId: "138" }).ok).toBe(true)
    expect(verifyWebhook(body, SECRET, { expectedMerchantId: "139" })).toMatchObject({ reason: "merchant_mismatch" })
  })

  it("protocol limit: characters can move between merchantId and orderId; expectedMerchantId catches it", () => {
    const body = signed({ merchantId: "138", orderId: "TEST-1" })
    const shifted = { ...body, merchantId: "13", orderId: "8TEST-1" }
    expect(verifyWebhook(shifted, SECRET).ok).toBe(true)
    expect(verifyWebhook(shifted, SECRET, { expectedMerchantId: "138" })).toMatchObject({ reason: "merchant_mismatch" })
  })

  it("protocol limit: paylaterRef is not signed (never trust it alone)", () => {
    expect(verifyWebhook({ ...signed(), paylaterRef: "PL-forged" }, SECRET).ok).toBe(true)
  })

  it.each([
    ["seconds", 1_746_499_849, 1_746_499_849_000 + 60_000, true],
    ["milliseconds", 1_746_499_849_330, 1_746_499_849_330 + 60_000, true],
    ["seconds, too old", 1_746_499_849, 1_746_499_849_000 + 600_000, false],
    ["milliseconds, too old", 1_746_499_849_330, 1_746_499_849_330 + 600_000, false],
    ["milliseconds, from the future", 1_746_499_849_330, 1_746_499_849_330 - 600_000, false],
  ])("freshness window with a timestamp in %s", (_unit, timestamp, now, ok) => {
    const body = signed({ timestamp })
    const result = verifyWebhook(body, SECRET, { toleranceSeconds: 300, now: () => now })
    expect(result.ok).toBe(ok)
    if (!ok) {
      expect(result).toMatchObject({ reason: "stale" })
    }
  })

  it("has no freshness window by default (PayLater retries late)", () => {
    expect(verifyWebhook(signed({ timestamp: 1 }), SECRET).ok).toBe(true)
  })
})

describe("hostile input never throws and is refused as malformed", () => {
  const good = signed()
  const cases: Array<[string, unknown]> = [
    ["null", null],
    ["undefined", undefined],
    ["array", [good]],
    ["number", 42],
    ["string", JSON.stringify(good)],
    ["boolean", true],
    ["empty object", {}],
    ...(["merchantId", "orderId", "status", "timestamp", "txHash", "signature"] as const).map(
      (field): [string, unknown] => {
        const copy: Record<string, unknown> = { ...good }
        delete copy[field]
        return [`missing ${field}`, copy]
      }
    ),
    ["merchantId negative number", { ...good, merchantId: -138 }],
    ["merchantId fraction", { ...good, merchantId: 13.8 }],
    ["merchantId boolean", { ...good, merchantId: true }],
    ["orderId array", { ...good, orderId: ["a"] }],
    ["status upper case", { ...good, status: "SUCCESS" }],
    ["status unknown", { ...good, status: "refunded" }],
    ["timestamp negative", { ...good, timestamp: -1 }],
    ["timestamp fraction", { ...good, timestamp: 1.5 }],
    ["timestamp NaN", { ...good, timestamp: Number.NaN }],
    ["timestamp unsafe integer", { ...good, timestamp: 2 ** 60 }],
    ["timestamp with sign", { ...good, timestamp: "+1746499849330" }],
    ["timestamp with space", { ...good, timestamp: " 1746499849330" }],
    ["timestamp in exponent form", { ...good, timestamp: "1.7e12" }],
    ["timestamp object", { ...good, timestamp: { value: 1 } }],
    ["comments number", { ...good, comments: 5 }],
    ["comments object", { ...good, comments: { a: 1 } }],
    ["paylaterRef fraction", { ...good, paylaterRef: 5.5 }],
    ["paylaterRef object", { ...good, paylaterRef: { id: 5 } }],
    ["txHash short", { ...good, txHash: String(good.txHash).slice(1) }],
    ["txHash non-hex", { ...good, txHash: "z".repeat(32) }],
    ["signature short", { ...good, signature: String(good.signature).slice(2) }],
    ["signature number", { ...good, signature: 1 }],
    ["huge merchantId", { ...good, merchantId: "a".repeat(1_000_000) }],
    ["huge comments", { ...good, comments: "c".repeat(100_000) }],
    ["huge txHash", { ...good, txHash: "a".repeat(1_000_000) }],
    ["empty orderId", { ...good, orderId: "" }],
  ]

  it.each(cases)("%s", (_name, body) => {
    let result: ReturnType<typeof verifyWebhook> | undefined
    expect(() => {
      result = verifyWebhook(body, SECRET)
    }).not.toThrow()
    expect(result).toMatchObject({ ok: false, reason: "malformed" })
    expect(typeof (result as { message: string }).message).toBe("string")
  })

  it("an unset secret is refused, not thrown", () => {
    expect(verifyWebhook(good, "")).toMatchObject({ ok: false, reason: "malformed" })
    expect(verifyWebhook(good, undefined as never)).toMatchObject({ ok: false, reason: "malformed" })
  })

  it("inherited (prototype) fields do not make a body valid", () => {
    const prototypeTrick = Object.create({ merchantId: "138" })
    expect(verifyWebhook(prototypeTrick, SECRET).ok).toBe(false)
  })
})

describe("timestampText", () => {
  it.each([
    [0, "0"],
    [1746499849330, "1746499849330"],
    ["1746499849", "1746499849"],
    ["007", "007"],
    [-1, null],
    [1.5, null],
    ["", null],
    ["12a", null],
    [null, null],
  ])("%j → %j", (value, text) => {
    expect(timestampText(value)).toBe(text)
  })
})

// Every character upper-cases to exactly one different-or-equal character, so single-character
// edits always change the upper-cased concatenation the hash covers.
const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/ éمرحبا١٢٣"
const HEX = "0123456789abcdef"
const STATUSES: WebhookStatus[] = ["success", "failed", "pending"]

describe("property: every mutation of a signed notification is refused", () => {
  const random = prng(0x5eed_2026)
  const int = (n: number) => Math.floor(random() * n)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]
  const word = (min: number, max: number) =>
    Array.from({ length: min + int(max - min + 1) }, () => pick([...ALPHABET])).join("")

  /** A different character whose upper case also differs. */
  function otherChar(original: string): string {
    for (;;) {
      const candidate = pick([...ALPHABET])
      if (candidate.toUpperCase() !== original.toUpperCase()) {
        return candidate
      }
    }
  }

  function otherHex(original: string): string {
    for (;;) {
      const candidate = pick([...HEX])
      if (candidate !== original.toLowerCase()) {
        return candidate
      }
    }
  }

  function editText(text: string, allowEmpty: boolean): string {
    const chars = [...text]
    const choice = int(3)
    if (choice === 0 && chars.length > 0) {
      const i = int(chars.length)
      chars[i] = otherChar(chars[i])
    } else if (choice === 1 && chars.length > (allowEmpty ? 0 : 1)) {
      chars.splice(int(chars.length), 1)
    } else {
      chars.splice(int(chars.length + 1), 0, pick([...ALPHABET]))
    }
    return chars.join("")
  }

  function flipHex(hex: string): string {
    const i = int(hex.length)
    return hex.slice(0, i) + otherHex(hex[i]) + hex.slice(i + 1)
  }

  type Mutation = (body: Record<string, unknown>, secret: string) => string[]

  const mutations: Mutation[] = [
    (b) => ((b.merchantId = editText(String(b.merchantId), false)), ["hash_mismatch"]),
    (b) => ((b.orderId = editText(String(b.orderId), false)), ["hash_mismatch"]),
    (b) => {
      const comments = typeof b.comments === "string" ? b.comments : ""
      b.comments = comments === "" ? word(1, 5) : editText(comments, true)
      return ["hash_mismatch"]
    },
    (b) => {
      if (typeof b.comments === "string" && b.comments !== "") {
        b.comments = pick([null, undefined, ""])
        if (b.comments === undefined) delete b.comments
      } else {
        b.comments = word(1, 3)
      }
      return ["hash_mismatch"]
    },
    (b) => ((b.status = pick(STATUSES.filter((s) => s !== b.status))), ["hash_mismatch"]),
    (b) => {
      const delta = 1 + int(1_000_000)
      const current = Number(b.timestamp)
      const next = current >= delta && random() < 0.5 ? current - delta : current + delta
      b.timestamp = random() < 0.5 ? next : String(next)
      return ["hash_mismatch"]
    },
    (b) => ((b.txHash = flipHex(String(b.txHash))), ["hash_mismatch"]),
    (b) => ((b.signature = flipHex(String(b.signature))), ["signature_mismatch"]),
    (b, secret) => ((b.signature = computeSignature(String(b.txHash), `${secret}x`)), ["signature_mismatch"]),
    (b) => {
      // The attacker recomputes the keyless MD5 after tampering; only the HMAC can stop this.
      b.orderId = editText(String(b.orderId), false)
      b.txHash = computeTxHash(b as never)
      return ["signature_mismatch"]
    },
    (b) => ((b.txHash = String(b.signature).slice(0, 32)), ["hash_mismatch"]),
    (b) => {
      delete b[pick(["merchantId", "orderId", "status", "timestamp", "txHash", "signature"])]
      return ["malformed"]
    },
    (b) => {
      const field = pick(["merchantId", "orderId", "status", "timestamp", "txHash", "signature"])
      const wrong = [null, -1, 1.5, true, [], {}, [String(b[field])], { value: b[field] }]
      // 0 is a valid timestamp and identifier, so it is only a wrong type for the other fields.
      b[field] = pick(["timestamp", "merchantId", "orderId"].includes(field) ? wrong : [...wrong, 0])
      return ["malformed"]
    },
    (b) => ((b.status = pick(["SUCCESS", "Success", "paid", "", "refunded"])), ["malformed"]),
  ]

  it("holds for 4000 seeded mutations", () => {
    const refusals: Record<string, number> = {}
    for (let run = 0; run < 4000; run++) {
      const secret = word(1, 40)
      const body: Record<string, unknown> = {
        ...signWebhook(
          {
            merchantId: word(1, 12),
            orderId: word(1, 40),
            paylaterRef: random() < 0.8 ? `PL${int(1e9)}` : undefined,
            status: pick(STATUSES),
            timestamp: random() < 0.5 ? int(2e9) : 1.7e12 + int(1e11),
            comments: pick([undefined, null, "", word(1, 60)]),
          },
          secret
        ),
      }
      if (body.paylaterRef === undefined) delete body.paylaterRef
      expect(verifyWebhook(body, secret).ok).toBe(true)

      const mutation = int(mutations.length)
      const expected = mutations[mutation](body, secret)
      let result: ReturnType<typeof verifyWebhook> | undefined
      try {
        result = verifyWebhook(body, secret)
      } catch (error) {
        throw new Error(`run ${run}: verifyWebhook threw ${String(error)} for ${JSON.stringify(body)}`)
      }
      if (result.ok || !expected.includes(result.reason)) {
        throw new Error(
          `run ${run}, mutation ${mutation}: expected ${expected.join("|")}, got ${JSON.stringify(result)} for ${JSON.stringify(body)}`
        )
      }
      refusals[result.reason] = (refusals[result.reason] ?? 0) + 1
    }
    // Every kind of refusal was exercised, so the loop is not silently testing one path.
    expect(Object.keys(refusals).sort()).toEqual(["hash_mismatch", "malformed", "signature_mismatch"])
  })

  it("random JSON values never throw and never verify", () => {
    const value = (depth: number): unknown => {
      switch (int(depth > 3 ? 5 : 7)) {
        case 0:
          return null
        case 1:
          return random() * 1e15 - 5e14
        case 2:
          return word(0, 70)
        case 3:
          return random() < 0.5
        case 4:
          return int(2e12)
        case 5:
          return Array.from({ length: int(4) }, () => value(depth + 1))
        default: {
          const keys = ["merchantId", "orderId", "status", "timestamp", "txHash", "signature", "comments", "x"]
          return Object.fromEntries(keys.filter(() => random() < 0.7).map((k) => [k, value(depth + 1)]))
        }
      }
    }
    for (let run = 0; run < 2000; run++) {
      const body = value(0)
      let ok = true
      expect(() => {
        ok = verifyWebhook(body, SECRET).ok
      }).not.toThrow()
      expect(ok).toBe(false)
    }
  })
})

describe("fields reached only through the prototype", () => {
  it("a genuine notification placed behind __proto__ is refused", () => {
    const genuine = signWebhook(
      { merchantId: "138", orderId: "ORD-proto", status: "success", timestamp: 1746499849 },
      "proto-secret"
    )
    const wrapped = Object.create(genuine) as Record<string, unknown>
    expect(verifyWebhook(wrapped, "proto-secret")).toMatchObject({ ok: false, reason: "malformed" })
    expect(verifyWebhook(genuine, "proto-secret").ok).toBe(true)
  })
})

describe("lenient about what senders really send, exactly as strict about the signature", () => {
  it("accepts identifiers sent as JSON numbers, hashed as their decimal text", () => {
    const body = signed({ merchantId: 138, orderId: 4711, paylaterRef: 1746499849330726 })
    expect(body.merchantId).toBe(138)
    const result = verifyWebhook(body, SECRET, { expectedMerchantId: "138" })
    expect(result).toMatchObject({
      ok: true,
      webhook: { merchantId: "138", orderId: "4711", paylaterRef: "1746499849330726" },
    })
    // The same notification with the identifiers as text verifies too: one signed text.
    expect(verifyWebhook({ ...body, merchantId: "138", orderId: "4711" }, SECRET).ok).toBe(true)
    expect(referenceSign({ ...body, merchantId: "138", orderId: "4711" }, SECRET).txHash).toBe(body.txHash)
  })

  it("a numeric merchantId still meets expectedMerchantId", () => {
    expect(verifyWebhook(signed({ merchantId: 139 }), SECRET, { expectedMerchantId: "138" })).toMatchObject({
      ok: false,
      reason: "merchant_mismatch",
    })
  })

  it("a numeric merchantId with a wrong signature is still refused", () => {
    const body = signed({ merchantId: 138 })
    expect(verifyWebhook({ ...body, signature: computeSignature(String(body.txHash), "other") }, SECRET)).toMatchObject({
      ok: false,
      reason: "signature_mismatch",
    })
  })

  const comments = "Payé — straße ödeme çok iyi"
  /** What PHP's strtoupper (PHP 8) does: ASCII letters only. */
  const asciiUpper = (text: string) => text.replace(/[a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 32))

  it("accepts non-ASCII comments upper-cased ASCII-only, as a PHP sender does", () => {
    const joined = "138" + "payses_01X" + "success" + "1746499849330" + comments
    const txHash = createHash("md5").update(asciiUpper(joined), "utf8").digest("hex")
    expect(txHash).not.toBe(createHash("md5").update(joined.toUpperCase(), "utf8").digest("hex"))
    const body = {
      merchantId: "138",
      orderId: "payses_01X",
      status: "success",
      timestamp: 1746499849330,
      comments,
      txHash,
      signature: computeSignature(txHash, SECRET),
    }
    expect(verifyWebhook(body, SECRET)).toMatchObject({ ok: true, webhook: { comments } })
    expect(computeTxHash(body, "ascii")).toBe(txHash)
    // Still keyed: the right ASCII-cased hash under another secret's signature is refused.
    expect(verifyWebhook({ ...body, signature: computeSignature(txHash, `${SECRET}x`) }, SECRET)).toMatchObject({
      ok: false,
      reason: "signature_mismatch",
    })
    // And a changed comment is refused under both readings.
    expect(verifyWebhook({ ...body, comments: `${comments}!` }, SECRET)).toMatchObject({
      ok: false,
      reason: "hash_mismatch",
    })
  })

  it("accepts the full Unicode upper-casing as before", () => {
    expect(verifyWebhook(signed({ comments }), SECRET)).toMatchObject({ ok: true, webhook: { comments } })
    expect(verifyWebhook(signWebhook({ ...baseFields(), comments }, SECRET, "ascii"), SECRET).ok).toBe(true)
  })

  it("upper-casing a lower-case ASCII text either way gives one hash (nothing else is loosened)", () => {
    const fields = { ...baseFields(), comments: "plain ascii" }
    expect(computeTxHash(fields, "ascii")).toBe(computeTxHash(fields, "unicode"))
  })
})

function baseFields() {
  return {
    merchantId: "138",
    orderId: "payses_01Y",
    status: "success" as WebhookStatus,
    timestamp: 1746499849330,
  }
}
