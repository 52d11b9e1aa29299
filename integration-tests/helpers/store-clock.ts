/**
 * `atStoreTime(ms, fn)`: runs `fn` with the store's `Date` moved `ms` forward. The app under test runs
 * in this process, so faking `Date` moves its clock; timers, I/O and the database keep real time.
 * PayLater's side has its own clock (the sandbox's `advanceClock`), moved separately by the spec.
 * Not reentrant: overlapping calls would stack their shifts, so wrap concurrent work in one call.
 */
export async function atStoreTime<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  jest.useFakeTimers({
    now: Date.now() + ms,
    doNotFake: [
      "hrtime",
      "nextTick",
      "performance",
      "queueMicrotask",
      "setImmediate",
      "clearImmediate",
      "setInterval",
      "clearInterval",
      "setTimeout",
      "clearTimeout",
    ],
  })
  try {
    return await fn()
  } finally {
    jest.useRealTimers()
  }
}
