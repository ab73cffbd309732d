import Audit
import Configuration
import Dispatch
import Foundation
import HTTP
import Commands
import Service
import Storage
import StoragePostgres
import StorageSQLite
import Endpoints

/// Runs passkeyd: opens the store (migrating it), starts the HTTP daemon, waits for SIGTERM or SIGINT, then
/// shuts down gracefully — stop accepting, finish requests in flight within the grace period, close the store.
public enum PasskeydServer {
    /// Why the server could not start.
    /// Why the start failed (`Service.StartError`).
    typealias StartError = Service.StartError

    /// A started server: its bound port and the means to stop it.
    public final class Running: Sendable {
        /// The TCP port the listener is bound to (useful with port 0).
        public let port: Int
        /// The admin listener's TCP port (`/metrics`), `nil` when `admin.listen` is empty.
        public let adminPort: Int?
        /// The shared state of the endpoints.
        public let context: ServerContext
        private let http: HTTPServer
        private let admin: HTTPServer?
        /// The data directory's lock, held until `stop` has closed the store.
        private let lock: DataDirectoryLock
        /// The periodic purge of expired rows.
        private let housekeeping: Task<Void, Never>
        /// The audit log's sequencer and checkpoint signer.
        private let audit: Task<Void, Never>
        /// The metadata BLOB's refresh (`metadata.refresh_interval_seconds`).
        private let metadataRefresh: Task<Void, Never>
        /// The auth sessions' secrets read again (`AuthSessionKey.reloadInterval`), so that a rotation reaches this
        /// node.
        private let sessionKeyReload: Task<Void, Never>

        package init(
            port: Int, context: ServerContext, http: HTTPServer, admin: (HTTPServer, port: Int)?,
            lock: DataDirectoryLock, audit: AuditService
        ) {
            self.port = port
            self.adminPort = admin?.port
            self.context = context
            self.http = http
            self.admin = admin?.0
            self.lock = lock
            self.housekeeping = Housekeeping.start(context: context)
            self.audit = audit.start()
            self.metadataRefresh = context.metadata.start()
            self.sessionKeyReload = context.startAuthSessionKeyReload()
        }

        /// Stops accepting connections, lets requests in flight finish within the configured grace period,
        /// closes the store, then releases the data directory.
        public func stop() async {
            housekeeping.cancel()
            metadataRefresh.cancel()
            sessionKeyReload.cancel()
            await http.shutdown(deadline: .seconds(context.configuration.http.shutdownGraceSeconds))
            await admin?.shutdown(deadline: .seconds(1))
            // Every ceremony answered is recorded before the process exits (record mode).
            await context.recorder?.drain()
            await housekeeping.value
            await metadataRefresh.value
            await sessionKeyReload.value
            // The last acknowledged events are sequenced and signed before the store closes.
            audit.cancel()
            await audit.value
            await context.store.close()
            lock.release()
        }
    }

    /// Locks the data directory (one server per directory), opens the store (creating and migrating it on first
    /// start, refusing a damaged file) and starts the HTTP listeners.
    public static func start(
        configuration: ServerConfiguration, logger: Logger, clock: any WallClock = SystemClock()
    ) async throws -> Running {
        let lock = try DataDirectoryLock.acquire(directory: configuration.dataDirectory)
        // What check-config warns about, said at start too, where the operator is looking (an issuer on another port
        // than the listener's: a --port it did not follow).
        for warning in configuration.warnings {
            logger.log(.warning, "configuration warning") { line in
                line.add("setting", warning.field)
                line.add("reason", warning.reason)
            }
        }
        let recording = configuration.recording
        let recorder = try recording.directory.map { directory throws(StartError) in
            try CeremonyRecorder.open(
                directory: directory, maxBytes: recording.maxBytes, maxFileBytes: recording.maxFileBytes,
                logger: logger)
        }
        let store: any Store
        do {
            store = try await DatabaseDrivers.openStore(configuration)
        } catch let error as StorageError where error.code == .corrupt {
            throw StartError(
                description: "the database file \(DatabaseDrivers.description(of: configuration)) is damaged "
                    + "(\(error.reason)); restore it from a backup")
        } catch {
            throw StartError(description: "cannot open the database: \(error)")
        }
        // Every write of a request commits the request first (`RequestCommitmentGate`).
        let context = ServerContext(
            configuration: configuration, store: store, logger: logger, clock: clock, recorder: recorder,
            writeGate: RequestCommitmentGate())
        if let recorder {
            // Loud on purpose: recordings are test data, and production traffic should not be kept by accident.
            logger.log(.warning, "RECORD MODE IS ON: every WebAuthn ceremony is written to the recording directory") {
                line in
                line.add("directory", recorder.directory)
                line.add("holds", "challenges, origins, credentials' public keys and user handles; no token or email")
                line.add("held_bytes", recorder.held.bytes)
                line.add("max_bytes", recorder.maxBytes)
                line.add("max_file_bytes", recorder.maxFileBytes)
            }
        }
        do {
            // The first start generates the token-signing key and stores it; later starts load it.
            try await context.tokens.bootstrap()
            let encrypted = try await context.tokens.encryptStoredKeys()
            let verifiers = try await PasswordVerifierSealing.run(
                store: context.store, keys: try context.secrets.get(), now: context.clock.now())
            var serverSecretsSealed: [String] = []
            for name in ServerSecretSealing.names
            where try await ServerSecretSealing.run(
                store: context.store, keys: try context.secrets.get(), now: context.clock.now(), name: name)
            {
                serverSecretsSealed.append(name)
            }
            // The sealed auth sessions' key, before any endpoint serves (their challenges seal without the store).
            try await context.loadAuthSessionKey()
            if let fingerprint = context.tokens.keyEncryptionFingerprint {
                logger.log(
                    .info,
                    "secrets at rest (token-signing keys, password verifiers, SRP sessions, server secrets) are "
                        + "encrypted"
                ) { line in
                    line.add("key_encryption_key", fingerprint)
                    // Where the key-encryption key itself is kept: its file alone, or wrapped by an HSM key.
                    line.add(
                        "key_encryption_key_file",
                        configuration.encryptionAtRest.pkcs11.map { "wrapped by PKCS#11 key \($0.keyLabel)" }
                            ?? "unwrapped")
                    if !encrypted.isEmpty { line.add("encrypted_now", encrypted.joined(separator: ",")) }
                    if verifiers.sealed > 0 { line.add("verifiers_encrypted_now", verifiers.sealed) }
                    if !serverSecretsSealed.isEmpty {
                        line.add("server_secrets_encrypted_now", serverSecretsSealed.joined(separator: ","))
                    }
                }
                if !verifiers.unopenable.isEmpty {
                    logger.log(
                        .error,
                        "password verifiers sealed under a key-encryption key this node does not have were left as "
                            + "they are: those users' password logins fail until its file is configured"
                    ) { line in
                        line.add("count", verifiers.unopenable.count)
                        line.add("user_ids", verifiers.unopenable.prefix(10).joined(separator: ","))
                    }
                }
            } else {
                logger.log(
                    .warning,
                    "secrets at rest (token-signing keys, password verifiers, SRP sessions, server secrets) are stored "
                        + "unencrypted in the database (encryption_at_rest.key_file is not set)"
                )
            }
        } catch {
            await store.close()
            throw StartError(description: "cannot load the token-signing keys or seal the secrets at rest: \(error)")
        }
        let signer: (any NoteSigner)?
        do {
            signer = try AuditSignerLoader.load(configuration.audit)
        } catch {
            await store.close()
            throw StartError(description: "cannot set up the audit checkpoint signer: \(error)")
        }
        logAuditSigner(configuration.audit, signer: signer, logger: logger)
        await AuditKeyContinuity.check(store: store, signer: signer, logger: logger)
        // The metadata BLOB (the configured file, else the stored one) before the first registration or login.
        await context.metadata.refresh()
        let http = HTTPServer(
            configuration: httpConfiguration(configuration), responder: Application(context: context),
            observer: RequestLogObserver(metrics: context.metrics, logger: logger))
        let port: Int
        do {
            port = try http.start()
        } catch {
            await store.close()
            throw StartError(description: "cannot start the HTTP listener: \(error)")
        }
        var admin: (HTTPServer, port: Int)?
        if let listen = configuration.adminListen {
            let server = HTTPServer(
                configuration: adminConfiguration(configuration, listen: listen),
                responder: AdminApplication(
                    context: context, auditSigner: signer,
                    storeMetrics: { [store = context.backingStore] in StoreMetrics.render(store) }))
            do {
                admin = (server, try server.start())
            } catch {
                await http.shutdown(deadline: .zero)
                await store.close()
                throw StartError(
                    description: "cannot start the admin listener on \(listen.host):\(listen.port): \(error)")
            }
        }
        let audit = AuditService(
            store: context.store, signer: signer, configuration: configuration.audit, logger: logger, clock: clock)
        return Running(port: port, context: context, http: http, admin: admin, lock: lock, audit: audit)
    }

    /// Starts the server, waits for SIGTERM or SIGINT, stops gracefully. Returns the process exit status.
    public static func run(configuration: ServerConfiguration, logger: Logger) async -> Int32 {
        // The signals' default action (terminate at once) is disabled before anything else, so a SIGTERM
        // arriving during start-up is handled as a graceful stop rather than lost or fatal.
        let signals = SignalListener(signals: [SIGTERM, SIGINT])
        AllocatorTuning.apply()
        let running: Running
        do {
            running = try await start(configuration: configuration, logger: logger)
        } catch {
            logger.log(.error, "start failed") { $0.add("error", String(describing: error)) }
            return 1
        }
        logger.log(.info, "listening") { line in
            line.add("host", configuration.listen.host)
            line.add("port", running.port)
            line.add("issuer", configuration.issuer)
            if let admin = configuration.adminListen, let adminPort = running.adminPort {
                line.add("admin", "\(admin.host):\(adminPort)")
            }
            line.add("database", DatabaseDrivers.description(of: configuration))
        }
        let signal = await signals.next()
        logger.log(.info, "stopping") { $0.add("signal", Int(signal)) }
        await running.stop()
        logger.log(.info, "stopped")
        return 0
    }

    /// Says at start what backs the audit log's checkpoints; a software key or none is a warning (docs/audit.md).
    package static func logAuditSigner(_ audit: AuditConfiguration, signer: (any NoteSigner)?, logger: Logger) {
        switch audit.signer {
        case .none:
            logger.log(.warning, "audit checkpoints are not signed (audit.signer is \"none\")")
        case .file(let path):
            logger.log(.warning, "the audit log is NOT HSM-backed: checkpoints are signed with a key file") {
                $0.add("key_file", path)
            }
        case .pkcs11(let settings):
            logger.log(.info, "audit checkpoints are signed in the HSM") { $0.add("token", settings.tokenLabel) }
        }
        if let signer { logger.log(.info, "audit verifier key") { $0.add("key", signer.verifierKey.description) } }
    }

    /// The admin listener: plain HTTP on `listen`, one thread, a few connections, tiny bodies (it serves GETs only).
    package static func adminConfiguration(_ configuration: ServerConfiguration, listen: ServerConfiguration.Listen)
        -> HTTPServer.Configuration
    {
        HTTPServer.Configuration(
            host: listen.host, port: listen.port, maxBodyBytes: 1_024, maxDiscardBytes: 0,
            connectionTimeout: .seconds(configuration.http.connectionTimeoutSeconds), connectionLimit: 64,
            requestDeadline: .seconds(configuration.http.requestDeadlineSeconds), threads: 1)
    }

    package static func httpConfiguration(_ configuration: ServerConfiguration) -> HTTPServer.Configuration {
        let http = configuration.http
        var tls: HTTPServer.TLSConfiguration?
        if let certificate = http.tlsCertificateFile, let key = http.tlsKeyFile {
            tls = HTTPServer.TLSConfiguration(certificatePath: certificate, privateKeyPath: key)
        }
        return HTTPServer.Configuration(
            host: configuration.listen.host, port: configuration.listen.port, maxBodyBytes: http.maxBodyBytes,
            connectionTimeout: .seconds(http.connectionTimeoutSeconds),
            requestReadTimeout: .seconds(http.requestReadTimeoutSeconds),
            responseWriteTimeout: .seconds(http.responseWriteTimeoutSeconds), connectionLimit: http.connectionLimit,
            perAddressConnectionLimit: http.perAddressConnectionLimit,
            perNetworkConnectionLimit: http.perNetworkConnectionLimit,
            requestDeadline: .seconds(http.requestDeadlineSeconds), threads: http.threads, tls: tls)
    }
}
