import ipaddr from "ipaddr.js"

/**
 * Which client a store API request comes from, for the per-client budget. Express's `trust proxy`
 * semantics with a number of hops (as proxy-addr computes it): the socket's address, then
 * X-Forwarded-For read from the right, skipping `trustedHops` addresses our own proxies appended.
 * Anything further left was written by the client and is never believed, so with 0 hops a client
 * cannot choose its address at all. Medusa sets `trust proxy` to 1 for `req.ip`; the plugin reads
 * its own option (`trustedProxyHops`) instead, so a store facing the internet directly can say 0.
 *
 * Each address is normalised first (normalizeAddress: port, brackets, zone), and an IPv6 client is
 * counted by its /56 (IPV6_CLIENT_PREFIX): one subscriber holds a whole prefix, and counting single
 * addresses would give them 2^72 budgets.
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

/**
 * The address as a proxy wrote it, reduced to the address alone, so that one client is one key
 * whatever its balancer adds: a port (`203.0.113.7:51234`, `[2001:db8::1]:443`; some load balancers
 * write it, and each source port would otherwise be a fresh budget), IPv6 brackets, a zone
 * (`fe80::1%eth0`), surrounding quotes. An IPv6 address without brackets keeps its last group: it
 * cannot carry a port unambiguously. IPv4-mapped IPv6 becomes IPv4 in budgetKeyOf.
 */
export function normalizeAddress(raw: string): string {
  let address = raw.trim().replace(/^"(.*)"$/, "$1")
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address)
  if (bracketed) {
    address = bracketed[1]
  } else if (/^[^:]+:\d+$/.test(address)) {
    // One colon: IPv4 (or a name) with a port.
    address = address.slice(0, address.lastIndexOf(":"))
  }
  const zone = address.indexOf("%")
  return zone >= 0 && address.includes(":") ? address.slice(0, zone) : address
}

/**
 * IPv6 clients are counted per /56 (docs/security.md, "IPv6 clients"): a home line is usually
 * delegated a /56 (RIPE-690), so per /64 its holder had 256 budgets, while a mobile network's
 * devices, each on its own /64, rarely share a /56 within a budget's window (and already share far
 * more behind IPv4 carrier NAT).
 */
export const IPV6_CLIENT_PREFIX = 56

/** The address as counted: IPv4 as is (also when IPv4-mapped), IPv6 by its /56, anything else capped text. */
export function budgetKeyOf(raw: string): string {
  const address = normalizeAddress(raw)
  if (!ipaddr.isValid(address)) {
    return `other:${address.slice(0, 64)}`
  }
  const parsed = ipaddr.process(address)
  if (parsed.kind() === "ipv4") {
    return parsed.toString()
  }
  const bytes = (parsed as ipaddr.IPv6).toByteArray()
  const kept = bytes.map((byte, i) => byte & (0xff << (8 - Math.max(0, Math.min(8, IPV6_CLIENT_PREFIX - i * 8)))) & 0xff)
  return `${ipaddr.fromByteArray(kept).toString()}/${IPV6_CLIENT_PREFIX}`
}
