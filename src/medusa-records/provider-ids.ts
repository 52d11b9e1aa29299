/** Both PayLater methods, whatever id the merchant registered them under. */
export const PAYLATER_PROVIDER = /^pp_paylater(-rtp)?_/
export const PAYLATER_RTP_PROVIDER = /^pp_paylater-rtp_/
