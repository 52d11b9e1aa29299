/**
 * Runs at most `limit` tasks at a time; the others wait their turn in arrival order. A waiting task
 * costs one resolver in an array: its work (and its memory: ORM contexts, queries) only starts when
 * its turn comes. Nothing is dropped.
 */
export class FifoLimiter {
  private limit: number
  private active = 0
  // A queue as an array with a moving head: shift() on a long array can copy it every time.
  private queue: Array<(() => void) | undefined> = []
  private head = 0
  private done = 0

  constructor(limit: number) {
    this.limit = FifoLimiter.checked(limit)
  }

  /** Tasks running now. */
  get running(): number {
    return this.active
  }

  /** Tasks waiting for their turn. */
  get waiting(): number {
    return this.queue.length - this.head
  }

  /** Tasks finished (or given up on by their slot timeout) since the process started. */
  get completed(): number {
    return this.done
  }

  get size(): number {
    return this.limit
  }

  /** A new bound: a larger one starts waiting tasks at once, a smaller one takes effect as tasks finish. */
  setLimit(limit: number): void {
    this.limit = FifoLimiter.checked(limit)
    while (this.active < this.limit && this.waiting > 0) {
      this.active++
      this.next()()
    }
  }

  /**
   * Runs `task` in its turn and returns what it returns (or throws what it throws). With
   * `slotTimeoutMs`, a task still running after that long keeps running but gives its slot to the
   * next one (`onOverrun` is told), so one hung task cannot stop the queue.
   */
  async run<T>(task: () => Promise<T>, options: { slotTimeoutMs?: number; onOverrun?: () => void } = {}): Promise<T> {
    if (this.active < this.limit && this.waiting === 0) {
      this.active++
    } else {
      // The slot is handed over by release(): `active` already counts this task when it resumes.
      await new Promise<void>((resolve) => this.queue.push(resolve))
    }
    let held = true
    const free = () => {
      if (held) {
        held = false
        this.done++
        this.release()
      }
    }
    const timer = options.slotTimeoutMs
      ? setTimeout(() => {
          if (held) options.onOverrun?.()
          free()
        }, options.slotTimeoutMs)
      : null
    timer?.unref?.()
    try {
      return await task()
    } finally {
      if (timer) clearTimeout(timer)
      free()
    }
  }

  private release(): void {
    if (this.active <= this.limit && this.waiting > 0) {
      this.next()()
    } else {
      this.active--
    }
  }

  private next(): () => void {
    const resolve = this.queue[this.head]!
    this.queue[this.head++] = undefined
    if (this.head === this.queue.length) {
      this.queue = []
      this.head = 0
    } else if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head)
      this.head = 0
    }
    return resolve
  }

  private static checked(limit: number): number {
    if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`a limit of ${limit} tasks at a time is not a positive whole number`)
    return limit
  }
}
