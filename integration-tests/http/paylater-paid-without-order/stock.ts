/**
 * A product whose stock Medusa manages, so a test can sell out the item between payment and cart
 * completion (the seed's products do not manage inventory).
 */
import { createInventoryLevelsWorkflow, createProductsWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { SeedResult } from "../../helpers/seed"

export interface StockedVariant {
  variantId: string
  /** Sets the stocked quantity at the seed's location. */
  setStock(quantity: number): Promise<void>
}

export async function createStockedVariant(container: MedusaContainer, seed: SeedResult, qar: number): Promise<StockedVariant> {
  const {
    result: [product],
  } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Last one in stock",
          status: "published",
          shipping_profile_id: seed.shippingProfileId,
          sales_channels: [{ id: seed.salesChannelId }],
          options: [{ title: "Size", values: ["One"] }],
          variants: [
            {
              title: "One",
              sku: `PAYLATER-STOCKED-${Date.now()}`,
              manage_inventory: true,
              options: { Size: "One" },
              prices: [{ currency_code: "qar", amount: qar }],
            },
          ],
        },
      ],
    },
  })
  const variantId = product.variants[0].id
  const {
    data: [variant],
  } = await container.resolve(ContainerRegistrationKeys.QUERY).graph({
    entity: "product_variant",
    fields: ["id", "inventory_items.inventory_item_id"],
    filters: { id: variantId },
  })
  const inventoryItemId: string = variant.inventory_items[0].inventory_item_id
  await createInventoryLevelsWorkflow(container).run({
    input: { inventory_levels: [{ inventory_item_id: inventoryItemId, location_id: seed.stockLocationId, stocked_quantity: 1 }] },
  })
  return {
    variantId,
    async setStock(quantity) {
      await container
        .resolve(Modules.INVENTORY)
        .updateInventoryLevels([{ inventory_item_id: inventoryItemId, location_id: seed.stockLocationId, stocked_quantity: quantity }])
    },
  }
}
