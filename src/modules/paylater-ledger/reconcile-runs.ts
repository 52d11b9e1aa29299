import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ledgerModuleOf } from "./resolve"

/** Runs kept for Settings → PayLater ("last reconciliation run"); older ones are deleted. */
const KEEP_RUNS = 50

/** Who started a run: Medusa's scheduler, or the watchdog standing in for a stopped schedule. */
export type ReconcileRunTrigger = "schedule" | "watchdog"

/** When Medusa's scheduler last started a run (the watchdog's own runs do not count), or null. */
export async function lastScheduledRunAt(container: MedusaContainer): Promise<Date | null> {
  const [run] = (await ledgerModuleOf(container)?.listPayLaterReconcileRuns({ trigger: "schedule" }, { select: ["started_at"], order: { started_at: "DESC" }, take: 1 })) ?? []
  return run ? new Date(run.started_at as unknown as string) : null
}

export interface ReconcileRunSummary {
  ran: boolean
  eligible?: number
  results?: Array<{ outcome: string }>
}

/**
 * Records one run of the reconciliation job (counts only). Never throws: the job's work is done by
 * then, and a missing record only makes the admin page show an older run.
 */
export async function recordReconcileRun(
  container: MedusaContainer,
  startedAt: Date,
  outcome: { result: ReconcileRunSummary } | { error: unknown },
  trigger: ReconcileRunTrigger = "schedule"
): Promise<void> {
  try {
    const service = ledgerModuleOf(container)
    if (!service) return
    const result = "result" in outcome ? outcome.result : null
    const outcomes = (result?.results ?? []).reduce<Record<string, number>>((acc, r) => {
      acc[r.outcome] = (acc[r.outcome] ?? 0) + 1
      return acc
    }, {})
    await service.createPayLaterReconcileRuns({
      started_at: startedAt,
      finished_at: new Date(),
      ran: result?.ran ?? false,
      checked: result?.results?.length ?? 0,
      eligible: result?.eligible ?? 0,
      outcomes,
      error: "error" in outcome ? String((outcome.error as Error)?.message ?? outcome.error).slice(0, 500) : null,
      trigger,
    })
    const old = await service.listPayLaterReconcileRuns({}, { select: ["id"], order: { started_at: "DESC" }, skip: KEEP_RUNS, take: 100 })
    if (old.length) {
      await service.deletePayLaterReconcileRuns(old.map((r) => r.id))
    }
  } catch (error) {
    container
      .resolve(ContainerRegistrationKeys.LOGGER)
      .warn(`PayLater: the reconciliation run could not be recorded: ${(error as Error)?.message ?? error}`)
  }
}
