import ipaddr from "ipaddr.js"

/**
 * Which client a store API request comes from, for the per-client budget. Express's `trust proxy`
 * semantics with a number of hops (as proxy-addr computes it): the socket's address, then
 * X-Forwarded-For read from the right, skipping `trustedHops` addresses our own proxies appended.
 * Anything further left was written by the client and is never believed, so with 0 hops a client
 * cannot choose its address at all. Medusa sets `trust proxy` to 1 for `req.ip`; the plugin reads
 * its own option (`trustedProxyHops`) instead, so a store facing the internet directly can say 0.
 *
 * An IPv6 client is counted by its /64: one subscriber usually holds a whole /64, and counting
 * single addresses would give them 2^64 budgets.
 */
export function clientAddressOf(
  request: { socket?: { remoteAddress?: string | null }; headers: Record<string, string | string[] | undefined> },
  trustedHops: number
): string {
  const chain = [request.socket?.remoteAddress ?? ""]
  const forwarded = request.headers["x-forwarded-for"]
  const list = (Array.isArray(forwarded) ? forwarded.join(",") : forwarded ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
  chain.push(...list.reverse())
  // The socket's address is hop 0; each trusted proxy vouches for the address one further left.
  return budgetKeyOf(chain[Math.min(trustedHops, chain.length - 1)])
}

/** The address as counted: IPv4 as is (also when IPv4-mapped), IPv6 by its /64, anything else capped text. */
export function budgetKeyOf(address: string): string {
  if (!ipaddr.isValid(address)) {
    return `other:${address.slice(0, 64)}`
  }
  const parsed = ipaddr.process(address)
  if (parsed.kind() === "ipv4") {
    return parsed.toString()
  }
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16))
  return `${parts.join(":")}::/64`
}
