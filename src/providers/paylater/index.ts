import { ModuleProvider, Modules } from "@medusajs/framework/utils"
import { PayLaterLinkProviderService } from "./services/link"
import { PayLaterRequestToPayProviderService } from "./services/request-to-pay"

// One registration, two methods: pp_paylater_<id> (hosted link) and pp_paylater-rtp_<id> (Request to Pay).
export default ModuleProvider(Modules.PAYMENT, {
  services: [PayLaterLinkProviderService, PayLaterRequestToPayProviderService],
})
