import Audit
import Foundation
import Storage

/// The audit log's background work on a running server: every `audit.sequence_interval_ms` the sequencer moves
/// queued events into the log (and node hashes missing from leaves appended without them are backfilled, a batch
/// at a time); at most every `audit.checkpoint_interval_ms`, when the tree grew, a checkpoint is signed. Failures
/// are logged and retried at the next tick; nothing here runs on a request's path.
package struct AuditService: Sendable {
    package let store: any Store
    package let signer: (any NoteSigner)?
    package let configuration: AuditConfiguration
    package let logger: Logger
    package let clock: any WallClock

    /// Starts the loop; cancel the task to stop it (a last batch and checkpoint are made first).
    package func start() -> Task<Void, Never> {
        Task {
            var lastCheckpoint = ContinuousClock.now - .milliseconds(configuration.checkpointIntervalMilliseconds)
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: .milliseconds(configuration.sequenceIntervalMilliseconds))
                } catch {
                    break
                }
                await sequence()
                await backfillNodes()
                if ContinuousClock.now - lastCheckpoint >= .milliseconds(configuration.checkpointIntervalMilliseconds) {
                    lastCheckpoint = ContinuousClock.now
                    await checkpoint()
                }
            }
            // On stop: what was acknowledged goes into the log and is signed before the store closes. In a task of
            // its own, not this cancelled one: a store may refuse a cancelled task's wait for a connection.
            await Task {
                await sequence()
                await checkpoint()
            }.value
        }
    }

    package func sequence() async {
        do {
            _ = try await AuditSequencer.drain(store: store, addresses: configuration.clientAddress)
        } catch {
            logger.log(.error, "audit sequencing failed") { $0.add("error", String(describing: error)) }
        }
    }

    /// One step of the backfill of node hashes, when leaves were appended without them (a read otherwise).
    package func backfillNodes() async {
        do {
            _ = try await AuditNodeBackfiller.backfillBatch(store: store)
        } catch {
            logger.log(.error, "audit node backfill failed") { $0.add("error", String(describing: error)) }
        }
    }

    package func checkpoint() async {
        guard let signer else { return }
        do {
            if let record = try await AuditCheckpointer.checkpointIfGrown(
                store: store, signer: signer, origin: configuration.origin, now: clock.now())
            {
                logger.log(.debug, "audit checkpoint signed") { $0.add("tree_size", Int(record.treeSize)) }
            }
        } catch {
            logger.log(.error, "audit checkpoint failed") { $0.add("error", String(describing: error)) }
        }
    }

    /// Creates the value from its stored properties.
    package init(
        store: any Store, signer: (any NoteSigner)?, configuration: AuditConfiguration, logger: Logger,
        clock: any WallClock
    ) {
        self.store = store
        self.signer = signer
        self.configuration = configuration
        self.logger = logger
        self.clock = clock
    }
}
