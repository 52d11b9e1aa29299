/** `/`: the catalogue, priced for Qatar. */
import type { HttpTypes } from "@medusajs/types"
import type { PageContext } from "../router"
import { PRODUCT_FIELDS, qatarRegion } from "../store"
import { h, money, showPage } from "../ui"

/** "QAR 100.00" or "From QAR 100.00" when the variants' prices differ. */
function priceLabel(product: HttpTypes.StoreProduct): string {
  const prices = (product.variants ?? [])
    .map((v) => v.calculated_price)
    .filter((p): p is NonNullable<typeof p> => typeof p?.calculated_amount === "number")
  if (prices.length === 0) return "Not available in Qatar"
  const lowest = prices.reduce((a, b) => (a.calculated_amount! <= b.calculated_amount! ? a : b))
  const from = prices.some((p) => p.calculated_amount !== lowest.calculated_amount) ? "From " : ""
  return `${from}${money(lowest.calculated_amount, lowest.currency_code ?? "qar")}`
}

function productCard(product: HttpTypes.StoreProduct): HTMLElement {
  const href = `/products/${encodeURIComponent(product.handle ?? product.id)}`
  return h(
    "article",
    { class: "card product-card" },
    h("h2", {}, h("a", { href }, product.title ?? "Untitled")),
    product.subtitle ? h("p", { class: "muted" }, product.subtitle) : null,
    h("p", { class: "price" }, priceLabel(product)),
    h("a", { class: "button", href, "aria-label": `Choose options for ${product.title}` }, "Choose")
  )
}

export async function renderProducts({ sdk }: PageContext): Promise<void> {
  const region = await qatarRegion(sdk)
  const { products } = await sdk.store.product.list({ region_id: region.id, fields: PRODUCT_FIELDS, limit: 24 })
  showPage(
    "Shop",
    h("h1", {}, "Shop"),
    h("p", { class: "muted" }, "Prices in Qatari riyal. Pay now or in 4 interest-free instalments with PayLater."),
    products.length
      ? h("div", { class: "grid", id: "products" }, ...products.map(productCard))
      : h("p", { id: "no-products" }, "No products yet.")
  )
}
