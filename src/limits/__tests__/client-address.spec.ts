import { budgetKeyOf, clientAddressOf } from "../client-address"

const request = (socket: string, forwarded?: string | string[]) => ({
  socket: { remoteAddress: socket },
  headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
})

describe("the client address a budget counts (trusted proxy hops)", () => {
  it("with 0 hops, the socket's address: X-Forwarded-For is the client's own writing", () => {
    expect(clientAddressOf(request("203.0.113.9", "1.2.3.4"), 0)).toBe("203.0.113.9")
  })

  it("with 1 hop (one load balancer), the address the balancer appended, not what the client wrote before it", () => {
    // The client sent "X-Forwarded-For: 1.2.3.4"; the balancer appended the real address.
    expect(clientAddressOf(request("10.0.0.2", "1.2.3.4, 198.51.100.20"), 1)).toBe("198.51.100.20")
    expect(clientAddressOf(request("10.0.0.2", ["1.2.3.4", "198.51.100.20"]), 1)).toBe("198.51.100.20")
  })

  it("with 2 hops (CDN then balancer)", () => {
    expect(clientAddressOf(request("10.0.0.2", "1.2.3.4, 198.51.100.20, 172.16.0.9"), 2)).toBe("198.51.100.20")
  })

  it("with more hops than the chain holds, the furthest address (as Express)", () => {
    expect(clientAddressOf(request("10.0.0.2", "198.51.100.20"), 3)).toBe("198.51.100.20")
    expect(clientAddressOf(request("203.0.113.9"), 1)).toBe("203.0.113.9")
  })

  it("counts IPv4-mapped IPv6 as IPv4 and IPv6 by its /64", () => {
    expect(budgetKeyOf("::ffff:203.0.113.9")).toBe("203.0.113.9")
    expect(budgetKeyOf("2001:db8:1:2:aaaa::1")).toBe(budgetKeyOf("2001:db8:1:2:ffff::9"))
    expect(budgetKeyOf("2001:db8:1:2::1")).not.toBe(budgetKeyOf("2001:db8:1:3::1"))
  })

  it("keeps text that is not an address, capped", () => {
    expect(budgetKeyOf("garbage")).toBe("other:garbage")
    expect(budgetKeyOf("x".repeat(500))).toHaveLength("other:".length + 64)
  })
})
