import Foundation
import Synchronization

@testable import Commands
@testable import Endpoints
@testable import Service
@testable import passkeyd

/// A clock the test moves by hand: stopped at a given instant, or running with real time from an offset.
final class TestClock: WallClock {
    private enum Reading {
        case stopped(Date)
        case running(offset: TimeInterval)
    }

    private let reading: Mutex<Reading>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        reading = Mutex(.stopped(start))
    }

    /// Real time plus `offset`, moving on with it: for certificates that openssl issues from the real now, which a
    /// stopped clock falls behind when a loaded machine takes a minute to reach the check.
    init(realTimePlus offset: TimeInterval) {
        reading = Mutex(.running(offset: offset))
    }

    func now() -> Date {
        reading.withLock { reading in
            switch reading {
            case .stopped(let instant): instant
            case .running(let offset): Date().addingTimeInterval(offset)
            }
        }
    }

    func advance(_ seconds: TimeInterval) {
        reading.withLock { reading in
            switch reading {
            case .stopped(let instant): reading = .stopped(instant.addingTimeInterval(seconds))
            case .running(let offset): reading = .running(offset: offset + seconds)
            }
        }
    }
}
