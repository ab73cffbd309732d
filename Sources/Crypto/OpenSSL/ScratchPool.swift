import Synchronization

/// A bounded free list of OpenSSL working objects (a `BN_CTX`, an `EC_KEY` on a curve) that are
/// expensive to build and cheap to reuse, shared by all threads. Each object is used by one borrower at
/// a time; the pool keeps at most `capacity` idle objects and frees the rest, so a burst of concurrent
/// verifications leaves no more behind than the steady state needs.
///
/// Why not thread-local: the cooperative pool's and Dispatch's threads come and go, and an object
/// parked in a dead thread's storage would leak; a pool has no owner to outlive.
///
/// A generic struct over one non-generic shared store: a generic class would make every use look its
/// metadata up in the runtime's cache (an authentication uses two pools), while this specialises away.
struct ScratchPool<Object: ScratchObject>: Sendable {
    /// The idle objects, all of type `Object`.
    private let store: ScratchPoolStore

    /// An empty pool that keeps at most `capacity` idle objects.
    init(capacity: Int) {
        store = ScratchPoolStore(capacity: capacity)
    }

    /// Runs `body` with an object taken from the pool (or built with `make` when none is idle) and
    /// returns the object afterwards. `nil` when no object was idle and `make` could not build one
    /// (OpenSSL out of memory).
    func withObject<Result>(
        make: () -> Object?, _ body: (Object) -> Result
    ) -> Result? {
        // Only `Object`s are ever given to this store, so the downcast cannot fail.
        guard let object = store.take().map({ unsafeDowncast($0, to: Object.self) }) ?? make() else { return nil }
        let result = body(object)
        store.give(object)
        return result
    }

    /// How many objects are idle (for tests).
    var idleCount: Int { store.idleCount }
}

/// The shared free list behind a `ScratchPool`.
final class ScratchPoolStore: Sendable {
    /// The idle objects, most recently returned last.
    private let idle: Mutex<[any ScratchObject]>
    /// The most idle objects kept.
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        self.idle = Mutex([])
    }

    /// The most recently returned idle object, if any.
    func take() -> (any ScratchObject)? {
        idle.withLock { $0.popLast() }
    }

    /// Returns `object` to the idle list, or lets it go when `capacity` objects are idle already.
    func give(_ object: any ScratchObject) {
        idle.withLock { objects in
            if objects.count < capacity { objects.append(object) }
        }
    }

    /// How many objects are idle.
    var idleCount: Int { idle.withLock { $0.count } }
}

/// An OpenSSL working object a `ScratchPool` may hand from thread to thread: it holds no state one
/// borrower leaves for the next to rely on.
protocol ScratchObject: AnyObject, Sendable {}
