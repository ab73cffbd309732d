import Configuration
import Storage

/// What every endpoint shares: the validated configuration, the store, observability, the clock, the token
/// service and the rate limiter. Immutable; one per running server.
public struct ServerContext: Sendable {
    public let configuration: ServerConfiguration
    /// The store the flows write through: each write is admitted by the write gate first (`GatedStore`).
    public let store: any Store
    /// The driver's store itself, for its own counters (`StoreMetrics`).
    package let backingStore: any Store
    /// Whether the store accepts writes, for `/readyz` (a heartbeat write at most once a second).
    package let readiness: ReadinessProbe
    public let metrics: Metrics
    public let logger: Logger
    public let clock: any WallClock
    /// Mints and verifies tokens; `tokens.authenticate(request)` checks a Bearer access token.
    public let tokens: TokenService
    /// Per-IP request limit of the passkey, token and device-key endpoints (per node).
    package let rateLimiter: RateLimiter
    /// The clients' machine-token quotas (`token_quota.client_credentials`), counted in this node's memory.
    package let machineTokenQuota = MachineTokenQuota()
    /// Per-user request limit of the device-key endpoints and `/device-events` (per node).
    package let userRateLimiter: RateLimiter
    /// Per-user limit of `/device-events` writes (per node), `device_keys.events_per_user_per_minute`.
    package let deviceEventLimiter: RateLimiter
    /// The key-encryption keys of secrets at rest (`encryption_at_rest`), read when the context is made; a file that
    /// cannot serve stops the start (`TokenService.bootstrap`).
    package let secrets: Result<SecretEncryptionKeys, SecretEncryption.Failure>
    /// Record mode's writer (`recording.directory`), `nil` when record mode is off.
    package let recorder: CeremonyRecorder?
    /// The key of the sealed `auth_session` values of `/passkey/challenge` and `/passkey/register`, loaded at start
    /// (`loadAuthSessionKey`).
    package let authSessionKey = AuthSessionKey()
    /// The FIDO MDS3 BLOB in use (`metadata`): `metadata.current()` on every registration and login; loaded at start
    /// and refreshed by the server (`MetadataRegistry.refresh()`).
    package let metadata: MetadataRegistry

    /// Creates a context; `writeGate` admits each write (the HTTP layer's `RequestCommitmentGate`).
    public init(
        configuration: ServerConfiguration, store: any Store, metrics: Metrics = Metrics(),
        logger: Logger = Logger(), clock: any WallClock = SystemClock(), recorder: CeremonyRecorder? = nil,
        writeGate: (any WriteGate)? = nil
    ) {
        self.recorder = recorder
        self.configuration = configuration
        let gated = GatedStore(base: store, gate: writeGate, nodeID: configuration.audit.nodeID)
        self.store = gated
        self.backingStore = store
        self.readiness = ReadinessProbe(store: store, clock: clock)
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
        let secrets = SecretEncryptionKeys.configured(configuration)
        self.secrets = secrets
        self.tokens = TokenService(configuration: configuration, store: gated, clock: clock, secrets: secrets)
        self.rateLimiter = RateLimiter(limit: configuration.rateLimitPerMinute)
        self.userRateLimiter = RateLimiter(limit: configuration.rateLimitPerUserPerMinute)
        self.deviceEventLimiter = RateLimiter(limit: configuration.deviceKeys.eventsPerUserPerMinute)
        self.metadata = MetadataRegistry(
            settings: configuration.metadata, store: gated, clock: clock, logger: logger)
    }

    /// Loads the auth sessions' sealing key from the store (creating it on a database's first start): once at
    /// start, before the passkey endpoints serve.
    package func loadAuthSessionKey() async throws {
        try await authSessionKey.load(store: store, keys: try secrets.get())
    }

    /// Reads the auth sessions' secrets again every `AuthSessionKey.reloadInterval`, so that a rotation
    /// (`passkeyd keys rotate-session-key`) reaches this node; cancel the task to stop it.
    package func startAuthSessionKeyReload() -> Task<Void, Never> {
        authSessionKey.startReloading(logger: logger)
    }
}
