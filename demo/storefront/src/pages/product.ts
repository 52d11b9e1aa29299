/** `/products/:handle`: pick a variant and a quantity, then go to the checkout with a new cart. */
import type { HttpTypes } from "@medusajs/types"
import { instalmentsLine } from "../paylater/instalments"
import type { PageContext } from "../router"
import { PRODUCT_FIELDS, cartStorage, errorMessage, qatarRegion } from "../store"
import { alertBox, busy, h, money, showPage } from "../ui"

function variantChoice(variant: HttpTypes.StoreProductVariant, checked: boolean): HTMLElement {
  const price = variant.calculated_price
  return h(
    "label",
    { class: "choice" },
    h("input", { type: "radio", name: "variant_id", value: variant.id, required: true, checked }),
    h("span", {}, variant.title ?? variant.id),
    h("span", { class: "price" }, money(price?.calculated_amount, price?.currency_code ?? "qar"))
  )
}

export async function renderProduct({ sdk, params }: PageContext): Promise<void> {
  const region = await qatarRegion(sdk)
  const { products } = await sdk.store.product.list({ handle: params.handle, region_id: region.id, fields: PRODUCT_FIELDS })
  const product = products[0]
  if (!product) {
    showPage("Not found", h("h1", {}, "Product not found"), h("p", {}, h("a", { href: "/" }, "Back to the shop")))
    return
  }
  const variants = (product.variants ?? []).filter((v) => typeof v.calculated_price?.calculated_amount === "number")
  const error = alertBox("error", "product-error")
  // "PayLater 4 payments of 87.50 QAR" for the chosen size (the plugin computes the plan, no PayLater call).
  const instalments = instalmentsLine(sdk, "product-instalments")
  const showInstalments = (variantId: string | null) => {
    const amount = variants.find((v) => v.id === variantId)?.calculated_price?.calculated_amount
    if (typeof amount === "number") instalments.show({ amount })
  }
  showInstalments(variants.length === 1 ? variants[0].id : null)
  const submit = h("button", { type: "submit", id: "add-to-cart" }, "Buy now")

  // "Buy now": a fresh cart per purchase keeps the demo's flow easy to follow. A full store would
  // add to the shopper's existing cart instead (sdk.store.cart.createLineItem).
  const onSubmit = async (event: Event) => {
    event.preventDefault()
    const form = new FormData(event.target as HTMLFormElement)
    const done = busy(submit, "Creating your cart…")
    error.textContent = ""
    try {
      const { cart } = await sdk.store.cart.create({
        region_id: region.id,
        items: [{ variant_id: String(form.get("variant_id")), quantity: Number(form.get("quantity") || 1) }],
      })
      cartStorage.set(cart.id)
      window.location.assign(`/checkout?cart_id=${encodeURIComponent(cart.id)}`)
    } catch (e) {
      error.textContent = errorMessage(e)
      done()
    }
  }

  showPage(
    product.title ?? "Product",
    h("p", {}, h("a", { href: "/" }, "← All products")),
    h(
      "article",
      { class: "card" },
      h("h1", {}, product.title ?? "Product"),
      product.description ? h("p", { class: "muted" }, product.description) : null,
      error,
      h(
        "form",
        {
          id: "product-form",
          onsubmit: onSubmit as EventListener,
          onchange: ((event: Event) => {
            const input = event.target as HTMLInputElement
            if (input.name === "variant_id") showInstalments(input.value)
          }) as EventListener,
        },
        h("fieldset", {}, h("legend", {}, "Choose a size"), ...variants.map((v) => variantChoice(v, variants.length === 1))),
        instalments.element,
        h("label", { for: "quantity" }, "Quantity"),
        h("input", { type: "number", id: "quantity", name: "quantity", min: 1, max: 10, value: 1, required: true }),
        h("div", { class: "actions" }, submit)
      )
    )
  )
}
