/**
 * `medusa exec ./integration-tests/multi-instance/seed-store.ts`: seeds the multi-instance test's
 * database once, through the same `seedStore` every integration test uses, and writes what the test
 * needs (publishable key, region, variants) as JSON to the file named by PAYLATER_SEED_OUT.
 */
import { writeFileSync } from "node:fs"
import type { ExecArgs } from "@medusajs/framework/types"
import { seedStore } from "../helpers/seed"
import { createStockedVariant } from "../http/paylater-paid-without-order/stock"

export default async function seedMultiInstanceStore({ container }: ExecArgs): Promise<void> {
  const out = process.env.PAYLATER_SEED_OUT
  if (!out) throw new Error("PAYLATER_SEED_OUT must name the file to write the seed result to")
  const seeded = await seedStore(container, { label: "PayLater multi-instance" })
  // The sold-out race: a product whose stock Medusa manages (the seed's do not), 1 in stock.
  const stocked = await createStockedVariant(container, seeded, 350)
  writeFileSync(out, JSON.stringify({ ...seeded, stockedVariantId: stocked.variantId }))
}
