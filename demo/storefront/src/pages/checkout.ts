/**
 * `/checkout`: contact, delivery address and method, then one of PayLater's two ways to pay:
 * "Pay with PayLater" (the hosted payment link) or "Pay with the PayLater app" (Request to Pay, a
 * mobile number; see ./request-to-pay.ts).
 *
 * Paying saves the form to the cart first (email, address, shipping method) and only then creates
 * the PayLater session, because the PayLater payment is for the cart's final total.
 */
import type { HttpTypes } from "@medusajs/types"
import { cartSummary } from "../cart-summary"
import { createPayLaterLink, goToPayLater, isPayLaterOffered } from "../paylater/link"
import { isRequestToPayOffered } from "../paylater/request-to-pay"
import type { PageContext } from "../router"
import { cartStorage, errorMessage, retrieveCart, type Sdk } from "../store"
import { alertBox, busy, h, money, showPage } from "../ui"
import { requestToPayOption } from "./request-to-pay"

function field(name: string, label: string, value: string | null | undefined, attrs: Record<string, string | boolean> = {}) {
  return [
    h("label", { for: name }, label),
    h("input", { id: name, name, type: "text", value: value ?? "", required: true, ...attrs }),
  ]
}

function shippingChoice(option: HttpTypes.StoreCartShippingOption, cart: HttpTypes.StoreCart, index: number): HTMLElement {
  const chosen = cart.shipping_methods?.some((m) => m.shipping_option_id === option.id) ?? false
  return h(
    "label",
    { class: "choice" },
    h("input", { type: "radio", name: "shipping_option_id", value: option.id, required: true, checked: chosen || index === 0 }),
    h("span", {}, option.name, option.type?.description ? h("small", { class: "muted" }, ` · ${option.type.description}`) : null),
    h("span", { class: "price" }, money(option.amount, cart.currency_code))
  )
}

/** Writes the form into the cart; returns the cart as Medusa now has it. */
async function saveCheckoutDetails(sdk: Sdk, cartId: string, form: FormData): Promise<HttpTypes.StoreCart> {
  const text = (name: string) => String(form.get(name) ?? "").trim()
  const address = {
    first_name: text("first_name"),
    last_name: text("last_name"),
    address_1: text("address_1"),
    city: text("city"),
    phone: text("phone"),
    country_code: "qa",
  }
  await sdk.store.cart.update(cartId, { email: text("email"), shipping_address: address, billing_address: address })
  await sdk.store.cart.addShippingMethod(cartId, { option_id: text("shipping_option_id") })
  return retrieveCart(sdk, cartId)
}

export function cartNotFound(): void {
  showPage(
    "Checkout",
    h("h1", {}, "Your cart is empty"),
    h("p", {}, h("a", { href: "/" }, "Choose a product"), " to check out.")
  )
}

export async function renderCheckout({ sdk, query }: PageContext): Promise<void> {
  const cartId = query.get("cart_id") ?? cartStorage.get()
  const cart = cartId ? await retrieveCart(sdk, cartId).catch(() => null) : null
  if (!cart || cart.completed_at) {
    cartStorage.clear()
    return cartNotFound()
  }
  cartStorage.set(cart.id)
  const [{ shipping_options }, offered, requestToPayOffered] = await Promise.all([
    sdk.store.fulfillment.listCartOptions({ cart_id: cart.id }),
    isPayLaterOffered(sdk, cart.region_id!),
    isRequestToPayOffered(sdk, cart.region_id!),
  ])

  const error = alertBox("error", "checkout-error")
  const payButton = h("button", { type: "submit", id: "pay-with-paylater", disabled: !offered }, "Pay with PayLater")
  const form = h("form", { id: "checkout-form" })
  const address = cart.shipping_address

  let summary = cartSummary(cart)
  /** Saves the form to the cart and shows what the payment is for: the total now includes the delivery just chosen. */
  const saveDetails = async (): Promise<HttpTypes.StoreCart> => {
    const ready = await saveCheckoutDetails(sdk, cart.id, new FormData(form))
    const updated = cartSummary(ready)
    summary.replaceWith(updated)
    summary = updated
    return ready
  }
  const onSubmit = async (event: Event) => {
    event.preventDefault()
    error.textContent = ""
    const done = busy(payButton, "Taking you to PayLater…")
    try {
      const ready = await saveDetails()
      goToPayLater(await createPayLaterLink(sdk, ready))
      // No `done()`: the page is being replaced by PayLater's.
    } catch (e) {
      // e.g. "PayLater accepts orders between QAR 300.00 and QAR 25,000.00": the provider's words.
      error.textContent = errorMessage(e)
      done()
      error.scrollIntoView({ block: "center" })
    }
  }
  form.addEventListener("submit", onSubmit)

  // Request to Pay needs the same saved details; its button is not a submit button, so the form's
  // own checks (required fields) are run here.
  const requestToPay = requestToPayOffered
    ? requestToPayOption({ sdk, prepareCart: async () => (form.reportValidity() ? saveDetails() : null) })
    : null
  form.append(
    h(
      "section",
      { class: "card", "aria-labelledby": "contact-title" },
      h("h2", { id: "contact-title" }, "Contact"),
      ...field("email", "Email", cart.email, { type: "email", autocomplete: "email" })
    ),
    h(
      "section",
      { class: "card", "aria-labelledby": "address-title" },
      h("h2", { id: "address-title" }, "Delivery address"),
      h(
        "div",
        { class: "row" },
        h("div", {}, ...field("first_name", "First name", address?.first_name, { autocomplete: "given-name" })),
        h("div", {}, ...field("last_name", "Last name", address?.last_name, { autocomplete: "family-name" }))
      ),
      ...field("address_1", "Building, street and zone", address?.address_1, { autocomplete: "address-line1" }),
      h(
        "div",
        { class: "row" },
        h("div", {}, ...field("city", "City", address?.city ?? "Doha", { autocomplete: "address-level2" })),
        h("div", {}, ...field("phone", "Mobile", address?.phone, { type: "tel", autocomplete: "tel" }))
      ),
      h("p", { class: "muted" }, "Country: Qatar")
    ),
    h(
      "section",
      { class: "card" },
      h(
        "fieldset",
        {},
        h("legend", {}, "Delivery method"),
        ...shipping_options.map((o, i) => shippingChoice(o, cart, i))
      ),
      shipping_options.length ? null : h("p", {}, "No delivery to Qatar is available for this cart.")
    ),
    h(
      "section",
      { class: "card paylater", "aria-labelledby": "payment-title" },
      h("h2", { id: "payment-title" }, "Payment"),
      h("p", {}, h("span", { class: "badge" }, "PayLater"), " Pay in 4 interest-free instalments."),
      h(
        "div",
        { class: "pay-option" },
        h("h3", {}, "Pay with PayLater"),
        h("p", { class: "muted" }, "You approve the plan on PayLater's page, then come back here."),
        offered ? null : h("p", { id: "paylater-unavailable" }, "PayLater is not available for this store's region."),
        error,
        h("div", { class: "actions" }, payButton)
      ),
      requestToPay ? h("p", { class: "or", "aria-hidden": "true" }, "or") : null,
      requestToPay
    )
  )

  showPage("Checkout", h("h1", {}, "Checkout"), h("div", { class: "layout" }, form, summary))
}
