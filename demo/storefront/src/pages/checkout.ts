/**
 * `/checkout`: contact, delivery address and method, then one of PayLater's two ways to pay:
 * "Pay with PayLater" (the hosted payment link) or "Pay with the PayLater app" (Request to Pay, a
 * mobile number; see ./request-to-pay.ts). The PayLater calls are the plugin's storefront kit
 * (`medusa-payment-paylater-storefront`).
 *
 * The delivery method is put on the cart as soon as it is chosen, so the summary always shows the
 * total PayLater will be asked for. Paying saves the rest of the form to the cart first (email,
 * address) and only then creates the PayLater session, for the cart's final total.
 */
import type { HttpTypes } from "@medusajs/types"
import { payLaterAvailability, startLinkCheckout, toCheckoutError } from "medusa-payment-paylater-storefront"
import { cartSummary } from "../cart-summary"
import { instalmentsLine } from "../paylater/instalments"
import type { PageContext } from "../router"
import { cartStorage, retrieveCart, type Sdk } from "../store"
import { alertBox, busy, h, money, showPage } from "../ui"
import { prefillFromPhone, requestToPayOption } from "./request-to-pay"

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

/** Puts the chosen delivery method on the cart (Medusa replaces the previous one). */
async function saveShippingMethod(sdk: Sdk, cartId: string, optionId: string): Promise<HttpTypes.StoreCart> {
  await sdk.store.cart.addShippingMethod(cartId, { option_id: optionId })
  return retrieveCart(sdk, cartId)
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
  const loaded = cartId ? await retrieveCart(sdk, cartId).catch(() => null) : null
  if (!loaded || loaded.completed_at) {
    cartStorage.clear()
    return cartNotFound()
  }
  cartStorage.set(loaded.id)
  const [{ shipping_options }, available] = await Promise.all([
    sdk.store.fulfillment.listCartOptions({ cart_id: loaded.id }),
    payLaterAvailability(sdk, loaded.region_id!),
  ])
  const offered = available.link
  // The summary must show what PayLater will be asked for, delivery included: the first option is
  // put on the cart at once when none is chosen yet.
  const cart =
    !loaded.shipping_methods?.length && shipping_options[0] ? await saveShippingMethod(sdk, loaded.id, shipping_options[0].id) : loaded

  const error = alertBox("error", "checkout-error")
  const payButton = h("button", { type: "submit", id: "pay-with-paylater", disabled: !offered }, "Pay with PayLater")
  const form = h("form", { id: "checkout-form" })
  const address = cart.shipping_address

  let summary = cartSummary(cart)
  const instalments = instalmentsLine(sdk, "paylater-instalments")
  instalments.show({ cartId: cart.id })
  /** Shows what the payment is for, from the cart as Medusa has it now. */
  const showCart = (updated: HttpTypes.StoreCart) => {
    const next = cartSummary(updated)
    summary.replaceWith(next)
    summary = next
    instalments.show({ cartId: updated.id })
    return updated
  }
  const saveDetails = async (): Promise<HttpTypes.StoreCart> => showCart(await saveCheckoutDetails(sdk, cart.id, new FormData(form)))
  const onSubmit = async (event: Event) => {
    event.preventDefault()
    error.textContent = ""
    const done = busy(payButton, "Taking you to PayLater…")
    try {
      const ready = await saveDetails()
      const { url } = await startLinkCheckout(sdk, ready)
      // `assign` keeps the checkout in history for the back button. No `done()`: the page is being replaced.
      window.location.assign(url)
    } catch (e) {
      // e.g. "PayLater can pay for orders between 300.00 and 25000.00 QAR…": the provider's words.
      error.textContent = toCheckoutError(e).message
      done()
      error.scrollIntoView({ block: "center" })
    }
  }
  form.addEventListener("submit", onSubmit)
  // A new delivery method changes the total at once, before the shopper pays.
  form.addEventListener("change", (event) => {
    const input = event.target as HTMLInputElement
    if (input.name !== "shipping_option_id") return
    void saveShippingMethod(sdk, cart.id, input.value).then(showCart, () => undefined)
  })

  // Request to Pay needs the same saved details; its button is not a submit button, so the form's
  // own checks (required fields) are run here.
  const requestToPay = available.requestToPay
    ? requestToPayOption({
        sdk,
        prepareCart: async () => (form.reportValidity() ? saveDetails() : null),
      })
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
      instalments.element,
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
  // The delivery address's mobile is the first guess for the PayLater number.
  prefillFromPhone(form)
}
