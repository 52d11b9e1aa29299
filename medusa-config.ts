import { defineConfig, loadEnv } from "@medusajs/framework/utils"

// The development / test store that loads this plugin from source (src/ is the project's own
// extension directory, so its routes, subscribers, jobs and admin load without a `plugins` entry).
// The demo and the integration tests point it at the local PayLater sandbox through env vars.
loadEnv(process.env.NODE_ENV || "development", process.cwd())

const env = process.env

/**
 * Several instances (docs/production.md): with REDIS_URL set, every piece of state that must be shared
 * between Medusa processes moves to Redis: the cart lock that makes completion exactly-once, the
 * event bus that carries PayLater's webhooks to the order pipeline, the workflow engine's state, the
 * cache and the admin sessions. Without REDIS_URL nothing changes: in-memory modules, one process.
 */
const redisUrl = env.REDIS_URL || undefined

/**
 * Optional prefix for every Redis key and queue this store creates, so that several stores (or test
 * runs) can share one Redis. Unset: Medusa's own defaults.
 */
const redisPrefix = env.MEDUSA_REDIS_PREFIX || undefined

const WORKER_MODES = ["shared", "worker", "server"] as const
type WorkerMode = (typeof WORKER_MODES)[number]

/**
 * MEDUSA_WORKER_MODE: shared (default) serves HTTP and runs subscribers, jobs and queues; server
 * serves HTTP only; worker runs the background work only. Medusa reads the variable itself but
 * silently ignores a typo; this refuses it. Medusa's own CLI commands (db:migrate, exec, user) set
 * "server" for themselves, so no Redis requirement is enforced here: a server/worker split only
 * works with the Redis modules (docs/production.md).
 */
function workerMode(value: string | undefined): WorkerMode | undefined {
  if (!value) return undefined
  if (!(WORKER_MODES as readonly string[]).includes(value)) {
    throw new Error(`MEDUSA_WORKER_MODE=${value} is not one of ${WORKER_MODES.join(", ")}`)
  }
  return value as WorkerMode
}

/** BullMQ queues: their own prefix (BullMQ refuses an ioredis keyPrefix). */
const bullPrefix = redisPrefix ? { prefix: `${redisPrefix}:bull` } : {}

const redisModules = redisUrl
  ? [
      {
        // Cart completion (return route, webhook pipeline) takes a lock on the cart id: it must be
        // one lock for all instances, or two instances can complete one cart at the same moment.
        resolve: "@medusajs/medusa/locking",
        options: {
          providers: [
            {
              resolve: "@medusajs/medusa/locking-redis",
              id: "locking-redis",
              is_default: true,
              options: { redisUrl, ...(redisPrefix ? { namespace: `${redisPrefix}:lock:` } : {}) },
            },
          ],
        },
      },
      {
        // A webhook received by one instance may be processed by any worker, once; retried on failure.
        resolve: "@medusajs/medusa/event-bus-redis",
        options: {
          redisUrl,
          ...(redisPrefix ? { queueOptions: bullPrefix, workerOptions: bullPrefix } : {}),
        },
      },
      {
        // Workflow state (checkpoints, retries, async steps, scheduled jobs) visible to every instance.
        resolve: "@medusajs/medusa/workflow-engine-redis",
        options: {
          redis: {
            redisUrl,
            ...(redisPrefix ? { queueOptions: bullPrefix, workerOptions: bullPrefix } : {}),
          },
        },
      },
      {
        // Medusa 2.21's cache module (the newer `caching` module is still behind a feature flag).
        resolve: "@medusajs/medusa/cache-redis",
        options: { redisUrl, ...(redisPrefix ? { namespace: `${redisPrefix}:cache:` } : {}) },
      },
    ]
  : []

const paylaterOptions = {
  clientId: env.PAYLATER_CLIENT_ID ?? "sandbox-client",
  clientSecret: env.PAYLATER_CLIENT_SECRET ?? "sandbox-secret",
  outletId: env.PAYLATER_OUTLET_ID ?? "1000000061",
  webhookSecret: env.PAYLATER_WEBHOOK_SECRET ?? "sandbox-webhook-secret",
  merchantId: env.PAYLATER_MERCHANT_ID ?? "sandbox-merchant",
  environment: (env.PAYLATER_ENVIRONMENT as "sandbox" | "production" | undefined) ?? "sandbox",
  apiBaseUrl: env.PAYLATER_API_BASE_URL ?? "http://127.0.0.1:4010",
  // A plain-http or loopback apiBaseUrl with environment "production" under NODE_ENV=production (docs/security.md).
  allowInsecureApiBase: env.PAYLATER_ALLOW_INSECURE_API_BASE === "true",
  timeoutMs: env.PAYLATER_TIMEOUT_MS ? Number(env.PAYLATER_TIMEOUT_MS) : undefined,
  // Validity of a Request to Pay (1-1440 minutes); a short one lets a test watch a request expire.
  requestToPayExpiryMinutes: env.PAYLATER_RTP_EXPIRY_MINUTES ? Number(env.PAYLATER_RTP_EXPIRY_MINUTES) : undefined,
  // Shopper look-up before a payment ("request-to-pay" | "all" | "off") and how long it may take.
  eligibilityCheck: env.PAYLATER_ELIGIBILITY_CHECK as "request-to-pay" | "all" | "off" | undefined,
  eligibilityTimeoutMs: env.PAYLATER_ELIGIBILITY_TIMEOUT_MS ? Number(env.PAYLATER_ELIGIBILITY_TIMEOUT_MS) : undefined,
  // Budgets of the store API (docs/security.md); unset: 3 per number per 10 min, 5 per cart per hour, 10 links per cart per hour.
  requestToPayLimitPerMobile: env.PAYLATER_RTP_LIMIT_PER_MOBILE || undefined,
  requestToPayLimitPerCart: env.PAYLATER_RTP_LIMIT_PER_CART || undefined,
  paymentLinkLimitPerCart: env.PAYLATER_LINK_LIMIT_PER_CART || undefined,
  // Starts per client address (20 per 10 min) and store-wide (120 per minute); proxies trusted for X-Forwarded-For (1).
  startLimitPerClient: env.PAYLATER_START_LIMIT_PER_CLIENT || undefined,
  startLimitPerMinute: env.PAYLATER_START_LIMIT_PER_MINUTE || undefined,
  trustedProxyHops: env.PAYLATER_TRUSTED_PROXY_HOPS || undefined,
  // Who is told what needs a person (README section 7b): the admin's panel unless "false", and these addresses by e-mail.
  notifyFeed: env.PAYLATER_NOTIFY_FEED || undefined,
  notifyEmails: env.PAYLATER_NOTIFY_EMAILS || undefined,
  // "hold" lists payments PayLater took without an order for a person instead of refunding them.
  paidWithoutOrder: env.PAYLATER_PAID_WITHOUT_ORDER as "refund" | "hold" | undefined,
  // Verified webhooks: how long they wait before settlement (default 5000 ms; tests set it low) and
  // how many settle at a time per process (default: half the database pool).
  webhookDelayMs: env.PAYLATER_WEBHOOK_DELAY_MS || undefined,
  webhookConcurrency: env.PAYLATER_WEBHOOK_CONCURRENCY || undefined,
  backendUrl: env.MEDUSA_BACKEND_URL ?? "http://localhost:9000",
  storefrontUrl: env.STOREFRONT_URL ?? "http://localhost:8000",
  // Where the return route sends the shopper; unset: the defaults, which match the demo storefront.
  // Another storefront (e.g. Medusa's DTC starter, docs/storefront-dtc-starter.md) sets its own.
  successUrlTemplate: env.PAYLATER_SUCCESS_URL_TEMPLATE || undefined,
  failureUrlTemplate: env.PAYLATER_FAILURE_URL_TEMPLATE || undefined,
  pendingUrlTemplate: env.PAYLATER_PENDING_URL_TEMPLATE || undefined,
}

/**
 * A second PayLater registration (its own outlet and credentials, e.g. a second brand's account),
 * only when PAYLATER_B_API_BASE_URL names its PayLater: the two-registration integration spec sets
 * it to a second sandbox. Unset, the store has the one registration above.
 */
const secondRegistration = env.PAYLATER_B_API_BASE_URL
  ? [
      {
        resolve: "./src/providers/paylater",
        id: "paylater-b",
        options: {
          ...paylaterOptions,
          apiBaseUrl: env.PAYLATER_B_API_BASE_URL,
          outletId: env.PAYLATER_B_OUTLET_ID ?? "1000000062",
          clientId: env.PAYLATER_B_CLIENT_ID ?? "sandbox-client-b",
          clientSecret: env.PAYLATER_B_CLIENT_SECRET ?? "sandbox-secret-b",
        },
      },
    ]
  : []

/**
 * Medusa's Notification Module: its default (the local provider on "feed", the admin's panel) unless
 * PAYLATER_TEST_NOTIFICATIONS asks for a store without the module ("off") or for the local provider on
 * "email" too ("feed,email"), so the tests see what the plugin sends on both channels.
 */
const notificationModule =
  env.PAYLATER_TEST_NOTIFICATIONS === "off"
    ? [{ resolve: "@medusajs/medusa/notification", disable: true }]
    : env.PAYLATER_TEST_NOTIFICATIONS === "feed,email"
      ? [
          {
            resolve: "@medusajs/medusa/notification",
            options: {
              providers: [
                { resolve: "@medusajs/medusa/notification-local", id: "local", options: { name: "Local", channels: ["feed", "email"] } },
              ],
            },
          },
        ]
      : []

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: env.DATABASE_URL,
    // Admin sessions in Redis too, so a login works on whichever instance the balancer picks.
    redisUrl,
    ...(redisPrefix ? { redisPrefix: `${redisPrefix}:` } : {}),
    workerMode: workerMode(env.MEDUSA_WORKER_MODE),
    http: {
      // EXTRA_STORE_CORS: one more storefront origin next to the demo's (e.g. the DTC starter on its own port).
      storeCors: [env.STORE_CORS ?? "http://localhost:8000", env.EXTRA_STORE_CORS].filter(Boolean).join(","),
      adminCors: env.ADMIN_CORS ?? "http://localhost:9000",
      authCors: env.AUTH_CORS ?? "http://localhost:8000,http://localhost:9000",
      jwtSecret: env.JWT_SECRET || "supersecret",
      cookieSecret: env.COOKIE_SECRET || "supersecret",
    },
  },
  admin: {
    disable: env.MEDUSA_ADMIN_DISABLED !== "false",
    // In development (the demo), Vite pre-bundles the dashboard's dependencies before the first page.
    // Medusa's list leaves out what the plugin's admin files import: they come through virtual
    // modules, which Vite's scan does not enter, so it found these only when the browser asked for
    // them and bundled everything twice more, then reloaded the page (DEBUG=vite:deps: 27 s, then
    // 16 s and 13 s more, on a first sign-in). Named here, the first bundle has them.
    vite: () => ({ optimizeDeps: { include: ["@medusajs/admin-shared", "@medusajs/admin-sdk", "@medusajs/icons"] } }),
  },
  modules: [
    ...redisModules,
    ...notificationModule,
    // The plugin's own module (PayLater activity log for the admin order widget). An app that
    // installs the plugin gets it registered from the plugin; this dev/test app loads src/ directly.
    { resolve: "./src/modules/paylater-ledger" },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        // Medusa's own /hooks/payment route waits this long too (0 reads as its 5 s default), so the
        // tests' short PAYLATER_WEBHOOK_DELAY_MS covers both webhook routes.
        webhook_delay: Number(env.PAYLATER_WEBHOOK_DELAY_MS) > 0 ? Number(env.PAYLATER_WEBHOOK_DELAY_MS) : undefined,
        providers: [
          {
            resolve: "./src/providers/paylater",
            id: "paylater",
            options: paylaterOptions,
          },
          ...secondRegistration,
        ],
      },
    },
  ],
})
