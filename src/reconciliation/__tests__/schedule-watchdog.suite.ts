import { scheduleStalled, schedulePeriodMs, STALLED_AFTER_PERIODS, watchOnce, type Watch, type WatchDeps } from "../schedule-watchdog"

const MIN = 60_000
const at = (minutes: number) => new Date(Date.UTC(2026, 10, 26, 12, 0) + minutes * MIN)

function fakes(lastScheduled: () => Date | null) {
  const lines: string[] = []
  let runs = 0
  const deps: WatchDeps = {
    lastScheduledAt: async () => lastScheduled(),
    runJobs: async () => {
      runs++
    },
    warn: (line) => lines.push(`warn ${line}`),
    info: (line) => lines.push(`info ${line}`),
  }
  return { deps, lines, runs: () => runs }
}

describe("schedule watchdog", () => {
  it("reads the schedule's period from its cron", () => {
    expect(schedulePeriodMs("*/2 * * * *", at(0))).toBe(2 * MIN)
    expect(schedulePeriodMs("*/10 * * * * *", at(0))).toBe(10_000)
    expect(schedulePeriodMs("0 * * * *", at(0))).toBe(60 * MIN)
    expect(schedulePeriodMs("not a cron", at(0))).toBe(2 * MIN)
  })

  it("calls a schedule stalled only after several periods without a scheduled run", () => {
    const base = { watchingSince: at(0), periodMs: 2 * MIN }
    expect(scheduleStalled({ ...base, lastScheduledAt: at(0), now: at(2 * STALLED_AFTER_PERIODS) })).toBe(false)
    expect(scheduleStalled({ ...base, lastScheduledAt: at(0), now: at(2 * STALLED_AFTER_PERIODS + 1) })).toBe(true)
    // A week-old last run (the jobs were off, or the store was down) is counted from when the watch began.
    expect(scheduleStalled({ ...base, lastScheduledAt: at(-7 * 24 * 60), now: at(1) })).toBe(false)
    expect(scheduleStalled({ ...base, lastScheduledAt: null, now: at(5) })).toBe(false)
    expect(scheduleStalled({ ...base, lastScheduledAt: null, now: at(7) })).toBe(true)
  })

  it("stands in for a stopped schedule every period, says so once, and steps back when the scheduler runs again", async () => {
    let last: Date | null = at(0)
    const { deps, lines, runs } = fakes(() => last)
    const watch: Watch = { watchingSince: at(0), periodMs: 2 * MIN, standingInSince: null }

    expect(await watchOnce(watch, deps, at(2))).toBe("ok")
    expect(await watchOnce(watch, deps, at(4))).toBe("ok")
    expect(runs()).toBe(0)

    // Redis restarted empty at +3: the scheduler's runs stop.
    expect(await watchOnce(watch, deps, at(7))).toBe("stood_in")
    expect(await watchOnce(watch, deps, at(9))).toBe("stood_in")
    expect(await watchOnce(watch, deps, at(11))).toBe("stood_in")
    expect(runs()).toBe(3)
    expect(lines.filter((l) => l.startsWith("warn"))).toHaveLength(1)
    expect(lines[0]).toMatch(/not run since 2026-11-26T12:00:00.000Z.*restart Medusa/)
    expect(watch.standingInSince).toEqual(at(7))

    // A Medusa restart registered the jobs again.
    last = at(12)
    expect(await watchOnce(watch, deps, at(13))).toBe("ok")
    expect(runs()).toBe(3)
    expect(lines.at(-1)).toMatch(/^info .*scheduler runs the PayLater jobs again/)
    expect(watch.standingInSince).toBeNull()
  })

  it("runs nothing while the scheduler keeps its schedule, however long the process lives", async () => {
    let now = at(0)
    const { deps, runs } = fakes(() => new Date(now.getTime() - 30_000))
    const watch: Watch = { watchingSince: at(0), periodMs: 2 * MIN, standingInSince: null }
    for (let i = 1; i <= 100; i++) {
      now = at(2 * i)
      expect(await watchOnce(watch, deps, now)).toBe("ok")
    }
    expect(runs()).toBe(0)
  })
})
