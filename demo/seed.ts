/**
 * `medusa exec ./demo/seed.ts`: gives the demo store its data, once.
 *
 * The data itself comes from the integration tests' `seedStore` (one source of truth for "a store
 * PayLater can sell in"), labelled "PayLater demo"; this script only adds what a person looking at
 * the demo needs: a readable product and variant names that say which PayLater rule each price
 * point shows. On an already seeded database it only makes sure the Qatar region offers every
 * registered PayLater payment method.
 */
import { updateProductsWorkflow, updateProductVariantsWorkflow, updateRegionsWorkflow } from "@medusajs/core-flows"
import type { ExecArgs } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { Knex } from "knex"
import { seedStore } from "../integration-tests/helpers/seed"
import { seedHistory } from "../integration-tests/helpers/funnel-history"

const LABEL = "PayLater demo"

const VARIANT_TITLES = {
  belowMin: "Sample size: 100 QAR, below PayLater's 300 QAR minimum",
  standard: "Standard: 350 QAR",
  fractional: "Gift box: 1,250.50 QAR",
  aboveMax: "Collector's chest: 30,000 QAR, above PayLater's maximum",
} as const

/**
 * A demo database seeded before a PayLater payment method existed (Request to Pay came after the
 * payment link) would never offer it: add every registered PayLater provider the Qatar region lacks.
 */
async function offerAllPayLaterProviders(container: ExecArgs["container"]): Promise<string[]> {
  const [qatar] = await container.resolve(Modules.REGION).listRegions(
    { currency_code: "qar" },
    { relations: ["countries"], take: 1, order: { created_at: "ASC" } }
  )
  if (!qatar) return []
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const {
    data: [region],
  } = await query.graph({ entity: "region", fields: ["payment_providers.id"], filters: { id: qatar.id } })
  const offered = new Set((region?.payment_providers ?? []).map((p: { id: string } | null) => p?.id))
  const registered = await container.resolve(Modules.PAYMENT).listPaymentProviders({ is_enabled: true })
  const missing = registered.map((p) => p.id).filter((id) => id.startsWith("pp_paylater") && !offered.has(id))
  if (missing.length) {
    await updateRegionsWorkflow(container).run({
      input: { selector: { id: qatar.id }, update: { payment_providers: [...offered, ...missing].filter(Boolean) as string[] } },
    })
  }
  return missing
}

const HISTORY_PREFIX = "demo"

/**
 * Four weeks of PayLater history in the ledger (integration-tests/helpers/funnel-history.ts), so the
 * admin's PayLater page shows a living funnel on the first run. Written again, ending now, once the
 * last one is more than a day old; the demo's own payments are never touched.
 */
async function freshDemoHistory(container: ExecArgs["container"]): Promise<number | null> {
  const knex = container.resolve(ContainerRegistrationKeys.PG_CONNECTION) as Knex
  const { rows } = await knex.raw(`select max(created_at) as last from paylater_attempt where id like ?`, [`platm_${HISTORY_PREFIX}_%`])
  const last = rows[0]?.last ? new Date(rows[0].last).getTime() : 0
  if (Date.now() - last < 24 * 3600_000) return null
  await knex.raw(`delete from paylater_refund_attempt where id like ?`, [`plref_platm_${HISTORY_PREFIX}_%`])
  await knex.raw(`delete from paylater_attempt where id like ?`, [`platm_${HISTORY_PREFIX}_%`])
  const history = await seedHistory(knex, { checkouts: 420, days: 28, end: new Date(), seed: 2026, prefix: HISTORY_PREFIX })
  return history.attempts.length
}

export default async function seedDemo({ container }: ExecArgs): Promise<void> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const history = await freshDemoHistory(container)
  if (history !== null) logger.info(`PayLater demo history: ${history} attempts over the last 28 days (admin → PayLater)`)
  const apiKeys = await container.resolve(Modules.API_KEY).listApiKeys({ title: `${LABEL} storefront` })
  if (apiKeys.length > 0) {
    const added = await offerAllPayLaterProviders(container)
    logger.info(`PayLater demo data is already there${added.length ? `; Qatar now also offers ${added.join(", ")}` : ""}`)
    return
  }

  const seeded = await seedStore(container, { label: LABEL })

  await updateProductsWorkflow(container).run({
    input: {
      selector: { id: seeded.productId },
      update: {
        title: "Majlis oud perfume",
        subtitle: "Pay in 4 interest-free instalments with PayLater",
        description:
          "A demo product with one variant per PayLater rule: pick the sample to see the minimum-amount error, " +
          "the standard or gift box to pay, and the collector's chest to see the maximum.",
      },
    },
  })
  await updateProductVariantsWorkflow(container).run({
    input: {
      product_variants: (Object.keys(VARIANT_TITLES) as (keyof typeof VARIANT_TITLES)[]).map((key) => ({
        id: seeded.variants[key].id,
        title: VARIANT_TITLES[key],
      })),
    },
  })

  logger.info(`PayLater demo data seeded: region ${seeded.regionId}, providers ${seeded.regionPaymentProviders.join(", ")}`)
}
