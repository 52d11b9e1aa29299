/**
 * Bundled for the browser by components.spec.ts (esbuild): mounts one storefront component with the
 * real JS SDK against the test's fake store (same origin), and records what the component handed
 * back (navigation, callbacks) on `window.__events` for the test to read.
 */
import Medusa from "@medusajs/js-sdk"
import { useEffect, useState } from "react"
import { createRoot } from "react-dom/client"
import { leaveForPlacedOrder, payLaterButtonText, payLaterChoice, type CartLike } from "../../index"
import {
  PayLaterButton,
  PayLaterInstalments,
  PayLaterPendingNotice,
  RequestToPayForm,
  RequestToPayWaiting,
} from "../../react"

type Locale = "en" | "ar"

/** The guide's review step in miniature: the sentence names the button the shopper sees under it. */
function Review({ choice, locale }: { choice: string; locale?: Locale }) {
  const cart = { id: "cart_1", email: "noor@example.qa", shipping_address: { phone: "+974 5111 8021" } }
  return (
    <div>
      <p id="review-text">By clicking the {payLaterButtonText(choice, locale) ?? "Place Order"} button, you accept our terms.</p>
      {choice.startsWith("pp_paylater-rtp_") ? (
        <RequestToPayForm sdk={sdk} locale={locale} cart={cart} idPrefix="rtp" onStarted={() => undefined} />
      ) : (
        <PayLaterButton sdk={sdk} locale={locale} cart={cart} id="pay" navigate={() => undefined} />
      )}
    </div>
  )
}

/** The guide's payment step in miniature: the method shown selected when the step opens. */
function PaymentStep({ search }: { search: string }) {
  const [cart, setCart] = useState<CartLike | null>(null)
  useEffect(() => {
    void sdk.store.cart.retrieve("cart_1").then((r) => setCart(r.cart))
  }, [])
  if (!cart) return null
  return <PaymentChoice key={cart.id} cart={cart} search={search} />
}

function PaymentChoice({ cart, search }: { cart: CartLike; search: string }) {
  const [selected, setSelected] = useState(payLaterChoice(search, cart) ?? "")
  return (
    <div id="payment-step">
      {["pp_system_default", "pp_paylater_paylater", "pp_paylater-rtp_paylater"].map((id) => (
        <label key={id}>
          <input type="radio" name="method" value={id} checked={selected === id} onChange={() => setSelected(id)} />
          {id}
        </label>
      ))}
      <button type="button" id="continue" disabled={!selected}>Continue to review</button>
    </div>
  )
}

declare global {
  interface Window {
    __events: Array<[string, unknown]>
    __mount: (name: string, props: Record<string, unknown>) => void
  }
}

const sdk = new Medusa({ baseUrl: window.location.origin, publishableKey: "pk_test" })
const record = (name: string) => (value: unknown) => window.__events.push([name, value])
window.__events = []

window.__mount = (name, props) => {
  const root = createRoot(document.getElementById("root")!)
  const common = { sdk, locale: props.locale as Locale | undefined }
  switch (name) {
    case "instalments":
      root.render(<PayLaterInstalments {...common} {...(props as { amount: string })} className="text-sm" />)
      break
    case "button":
      root.render(<PayLaterButton {...common} cart={props.cart as { id: string }} navigate={record("navigate")} onError={(e) => record("error")(e.code)} id="pay" />)
      break
    case "button-placed":
    case "rtp-form-placed": {
      // The guide's wiring: the starter's server action forgets the cart, then the confirmation replaces the checkout.
      const onPlaced = (placed: { orderId: string }) =>
        void leaveForPlacedOrder(placed, {
          countryCode: "qa",
          forgetCart: async () => record("forgetCart")(true),
          navigate: record("navigate"),
        })
      root.render(
        name === "button-placed" ? (
          <PayLaterButton {...common} cart={props.cart as { id: string }} navigate={record("paylater")} onPlaced={onPlaced} id="pay" />
        ) : (
          <RequestToPayForm {...common} cart={props.cart as { id: string }} idPrefix="rtp" onStarted={record("started")} onPlaced={onPlaced} />
        )
      )
      break
    }
    case "button-default-navigation":
      root.render(<PayLaterButton {...common} cart={props.cart as { id: string }} id="pay" />)
      break
    case "rtp-form":
      root.render(
        <RequestToPayForm
          {...common}
          cart={props.cart as { id: string }}
          idPrefix="rtp"
          onStarted={(started, mobile) => record("started")({ id: started.session.id, data: started.data, mobile })}
        />
      )
      break
    case "rtp-waiting":
      root.render(
        <RequestToPayWaiting
          {...common}
          sessionId="payses_1"
          maskedNumber="974*****021"
          amountText="360.00 QAR"
          pollIntervalMs={50}
          onPaid={record("paid")}
          onRetry={() => record("retry")(true)}
          classNames={{ retry: "store-button" }}
        />
      )
      break
    case "review":
      root.render(<Review choice={props.choice as string} locale={common.locale} />)
      break
    case "payment-step":
      root.render(<PaymentStep search={props.search as string} />)
      break
    case "pending":
      root.render(<PayLaterPendingNotice {...common} cartId="cart_1" onOrder={record("order")} onFailed={record("failed")} />)
      break
  }
}
