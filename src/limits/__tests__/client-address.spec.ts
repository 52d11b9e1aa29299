import { budgetKeyOf, clientAddressOf, normalizeAddress } from "../client-address"

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

  it("counts IPv4-mapped IPv6 as IPv4 and IPv6 by its /56", () => {
    expect(budgetKeyOf("::ffff:203.0.113.9")).toBe("203.0.113.9")
    expect(budgetKeyOf("::FFFF:203.0.113.9")).toBe("203.0.113.9")
    expect(budgetKeyOf("2001:db8:1:2:aaaa::1")).toBe(budgetKeyOf("2001:db8:1:2:ffff::9"))
    // One home line's /56 is one client, whichever of its 256 /64s it uses.
    expect(budgetKeyOf("2001:db8:1:2::1")).toBe(budgetKeyOf("2001:db8:1:ff::1"))
    expect(budgetKeyOf("2001:db8:1:2::1")).toBe("2001:db8:1::/56")
    expect(budgetKeyOf("2001:db8:1:102::1")).toBe("2001:db8:1:100::/56")
    expect(budgetKeyOf("2001:db8:1:2::1")).not.toBe(budgetKeyOf("2001:db8:1:100::1"))
    expect(budgetKeyOf("2001:DB8:1:2::1")).toBe(budgetKeyOf("2001:db8:1:2::1"))
  })

  it("keeps text that is not an address, capped", () => {
    expect(budgetKeyOf("garbage")).toBe("other:garbage")
    expect(budgetKeyOf("x".repeat(500))).toHaveLength("other:".length + 64)
  })

  describe("forwarded addresses are normalised before keying (issue 34)", () => {
    it("strips an IPv4 port: each source port is not its own budget", () => {
      expect(normalizeAddress("203.0.113.7:51234")).toBe("203.0.113.7")
      expect(budgetKeyOf("203.0.113.7:51234")).toBe(budgetKeyOf("203.0.113.7:51235"))
      expect(budgetKeyOf("203.0.113.7:51234")).toBe("203.0.113.7")
      expect(clientAddressOf(request("10.0.0.2", "1.2.3.4, 203.0.113.7:51234"), 1)).toBe("203.0.113.7")
    })

    it("removes IPv6 brackets, with or without a port", () => {
      expect(normalizeAddress("[2001:db8::1]")).toBe("2001:db8::1")
      expect(normalizeAddress("[2001:db8::1]:443")).toBe("2001:db8::1")
      expect(budgetKeyOf("[2001:db8:1:2::1]:443")).toBe(budgetKeyOf("2001:db8:1:2::1"))
      expect(clientAddressOf(request("10.0.0.2", "[2001:db8:1:2::1]:50000"), 1)).toBe("2001:db8:1::/56")
    })

    it("removes an IPv6 zone, bracketed or not", () => {
      expect(normalizeAddress("fe80::1%eth0")).toBe("fe80::1")
      expect(normalizeAddress("[fe80::1%25eth0]:8080")).toBe("fe80::1")
      expect(budgetKeyOf("fe80::1%eth0")).toBe(budgetKeyOf("fe80::1"))
    })

    it("counts IPv4-mapped IPv6 as IPv4, also bracketed with a port", () => {
      expect(budgetKeyOf("[::ffff:203.0.113.7]:51234")).toBe("203.0.113.7")
      expect(budgetKeyOf("::ffff:203.0.113.7")).toBe(budgetKeyOf("203.0.113.7:1"))
    })

    it("leaves an unbracketed IPv6 address whole (its last group is not a port)", () => {
      expect(normalizeAddress("2001:db8::1:443")).toBe("2001:db8::1:443")
      expect(normalizeAddress(" 203.0.113.7 ")).toBe("203.0.113.7")
      expect(normalizeAddress('"203.0.113.7:80"')).toBe("203.0.113.7")
    })

    it("uses the socket's address normalised too", () => {
      expect(clientAddressOf(request("::ffff:198.51.100.4"), 0)).toBe("198.51.100.4")
    })
  })
})
