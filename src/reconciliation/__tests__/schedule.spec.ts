import { describeReconcileSchedule, reconcileSchedule } from "../schedule"

describe("reconciliation schedule: the boot log line", () => {
  it("says the schedule, and that the job is otherwise quiet", () => {
    expect(describeReconcileSchedule(reconcileSchedule(undefined))).toBe(
      'PayLater reconciliation: scheduled "*/2 * * * *" (every 2 minutes); it logs a line only when it finds work'
    )
    expect(describeReconcileSchedule(reconcileSchedule("* * * * *"))).toMatch(/scheduled "\* \* \* \* \*" \(PAYLATER_RECONCILE_SCHEDULE\)/)
  })

  it("says plainly when it is off", () => {
    expect(describeReconcileSchedule(reconcileSchedule("off"))).toMatch(/^PayLater reconciliation: off /)
  })
})
