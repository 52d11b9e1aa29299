// A seeded random source (mulberry32): the same seed makes the same choices in the same order, so a
// campaign's shoppers, faults and kill schedule can be replayed from the seed it prints. (Timing on
// a shared machine still varies, so where a kill lands inside a request may differ between replays.)
function createRng(seed) {
  let state = Number(BigInt.asUintN(32, BigInt(seed))) || 1
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
    /** `choices`: { name: weight } */
    weighted: (choices) => {
      const entries = Object.entries(choices)
      let r = next() * entries.reduce((s, [, w]) => s + w, 0)
      for (const [name, w] of entries) {
        if ((r -= w) < 0) return name
      }
      return entries[entries.length - 1][0]
    },
    /** An independent stream (its own sequence), so shoppers and the nemesis do not shift each other's choices. */
    fork: (label) => createRng((BigInt(seed) * 31n + BigInt([...label].reduce((h, c) => (h * 33 + c.charCodeAt(0)) >>> 0, 5381))) & 0xffffffffn),
  }
  return rng
}

module.exports = { createRng }
