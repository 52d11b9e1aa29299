/**
 * Bundled for the browser by components.spec.ts (esbuild): mounts one storefront component with the
 * real JS SDK against the test's fake store (same origin), and records what the component handed
 * back (navigation, callbacks) on `window.__events` for the test to read.
 */
import Medusa from "@medusajs/js-sdk"
import { createRoot } from "react-dom/client"
import {
  PayLaterButton,
  PayLaterInstalments,
  PayLaterPendingNotice,
  RequestToPayForm,
  RequestToPayWaiting,
} from "../../react"

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
  const common = { sdk, locale: props.locale as "en" | "ar" | undefined }
  switch (name) {
    case "instalments":
      root.render(<PayLaterInstalments {...common} {...(props as { amount: string })} className="text-sm" />)
      break
    case "button":
      root.render(<PayLaterButton {...common} cart={props.cart as { id: string }} navigate={record("navigate")} onError={(e) => record("error")(e.code)} id="pay" />)
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
        />
      )
      break
    case "pending":
      root.render(<PayLaterPendingNotice {...common} cartId="cart_1" onOrder={record("order")} onFailed={record("failed")} />)
      break
  }
}
